import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { generateText, type StopCondition, type ToolSet, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withToolwaves } from '../src/index.js';
import { callingModel, until } from './context-probe.js';

/** The registry declares nothing: each call runs alone, so the second waits for the first. */
const dispatcher = () => new Dispatcher({ registry: new ToolRegistry(), mode: 'eager' });
// biome-ignore lint/suspicious/noExplicitAny: a stop condition for any tool set
const twoSteps: StopCondition<any> = ({ steps }) => steps.length >= 2;
const calls = [
  { id: 'c1', name: 'first', input: { path: 'a' } },
  { id: 'c2', name: 'second', input: { path: 'b' } },
];
const reason = new Error('stopped by the user');

/** Two tools that hold until their abort signal aborts (as a `fetch` would). */
function heldTools() {
  const started: string[] = [];
  const held = () =>
    tool({
      description: 'Holds',
      inputSchema: z.object({ path: z.string() }),
      execute: ({ path }, { abortSignal }) => {
        started.push(path);
        return new Promise<string>((_resolve, reject) => {
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
        });
      },
    });
  return { tools: { first: held(), second: held() }, started };
}

describe("aborts and errors answered as the AI SDK's own", () => {
  it('an aborted generateText ends as it does without toolwaves; the waiting call never runs', async () => {
    // `starts`: the calls that start before the abort (alone, both; scheduled, the first only)
    const abortedRun = async (schedule: (tools: ToolSet) => ToolSet, starts: number) => {
      const { tools, started } = heldTools();
      const model = callingModel(calls);
      const stop = new AbortController();
      const run = generateText({
        model,
        tools: schedule(tools),
        stopWhen: twoSteps,
        prompt: 'Go.',
        abortSignal: stop.signal,
      });
      await until(() => started.length === starts);
      stop.abort(reason);
      const outcome = await run.then(
        (result) => ({ text: result.text, content: result.steps[0]?.content }),
        (error: unknown) => ({ error }),
      );
      return { outcome, started };
    };
    const plain = await abortedRun((tools) => tools, 2);
    const ours = await abortedRun((tools) => withToolwaves(tools, { dispatcher: dispatcher() }), 1);
    expect(ours.outcome).toEqual(plain.outcome);
    expect(plain.started.sort()).toEqual(['a', 'b']);
    expect(ours.started).toEqual(['a']);
  });

  it("a tool's error reaches the model as it does without toolwaves", async () => {
    const failure = new Error('disk on fire');
    const failing = {
      first: tool({
        description: 'Fails',
        inputSchema: z.object({ path: z.string() }),
        execute: async (): Promise<string> => {
          throw failure;
        },
      }),
      second: tool({
        description: 'Reads',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => `read ${path}`,
      }),
    };
    const answered = async (tools: ToolSet) => {
      const result = await generateText({
        model: callingModel(calls),
        tools,
        stopWhen: twoSteps,
        prompt: 'Go.',
      });
      return { text: result.text, content: result.steps[0]?.content };
    };
    const plain = await answered(failing);
    const ours = await answered(withToolwaves(failing, { dispatcher: dispatcher() }));
    expect(ours).toEqual(plain);
    expect(plain.content?.filter((part) => part.type === 'tool-error')).toHaveLength(1);
  });
});
