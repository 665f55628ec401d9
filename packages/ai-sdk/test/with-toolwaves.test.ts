import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import {
  driveEditTurn,
  EDIT_TURN,
  EDIT_TURN_KEPT_APART,
  editTurnSchedule,
  gatedFsWorkspace,
} from '@toolwaves/tools-fs/testing';
import { generateText, type StopCondition, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { ToolLoopError, toAiSdkTools, withToolwaves } from '../src/index.js';
import { callsStep, streamedStep, textStep, toolResultsIn } from './fixtures.js';

/** The gated fs workspace, and a Dispatcher scheduling by its tools' declarations. */
async function onWorkspace() {
  const workspace = await gatedFsWorkspace({
    dispatcher: (settings) => new Dispatcher({ ...settings, mode: 'eager' }),
  });
  onTestFinished(workspace.remove);
  return workspace;
}

const turn = EDIT_TURN.map((call) => ({ id: call.id, name: call.name, input: call.args }));
/** `stepCountIs(2)` in `ai` 6, `isStepCount(2)` in `ai` 7: written out, it works in both. */
// biome-ignore lint/suspicious/noExplicitAny: a stop condition for any tool set
const twoSteps: StopCondition<any> = ({ steps }) => steps.length >= 2;
const prompt = 'Edit a.txt twice, then read b.txt and a.txt.';

describe('withToolwaves with generateText (mock model, real fs tools)', () => {
  it('keeps the two edits apart and in order, runs the read of b beside them, answers in order', async () => {
    const { registry, dispatcher, gates, read } = await onWorkspace();
    const model = new MockLanguageModelV3({ doGenerate: [callsStep(turn), textStep('Done.')] });
    const run = generateText({
      model,
      tools: withToolwaves(toAiSdkTools(registry, { execute: true }), { dispatcher }),
      stopWhen: twoSteps,
      prompt,
    });

    const observed = await driveEditTurn(gates);
    const result = await run;

    expect(result.text).toBe('Done.');
    expect({ ...observed, ...editTurnSchedule(gates) }).toEqual(EDIT_TURN_KEPT_APART);
    expect(await read('a.txt')).toBe('gamma\n');
    const [answers] = toolResultsIn(model.doGenerateCalls[1]!.prompt);
    expect(answers?.map(([id, type]) => [id, type])).toEqual([
      ['e1', 'text'],
      ['e2', 'text'],
      ['rb', 'text'],
      ['ra', 'text'],
    ]);
    expect(String(answers?.[2]?.[2])).toContain('bravo');
    expect(String(answers?.[3]?.[2])).toContain('gamma');
  });

  it('schedules the calls of a streamText step the same way', async () => {
    const { registry, dispatcher, gates, read } = await onWorkspace();
    const model = new MockLanguageModelV3({
      doStream: [streamedStep(turn, 'Editing.'), streamedStep([], 'Done.')],
    });
    const result = streamText({
      model,
      tools: withToolwaves(toAiSdkTools(registry, { execute: true }), { dispatcher }),
      stopWhen: twoSteps,
      prompt,
    });
    const text = result.text; // the last step's text, once the stream has ended

    const observed = await driveEditTurn(gates);
    expect(await text).toBe('Done.');

    expect({ ...observed, ...editTurnSchedule(gates) }).toEqual(EDIT_TURN_KEPT_APART);
    expect(await read('a.txt')).toBe('gamma\n');
    const [answers] = toolResultsIn(model.doStreamCalls[1]!.prompt);
    expect(answers?.map(([id]) => id)).toEqual(['e1', 'e2', 'rb', 'ra']);
  });

  it('runs nothing that had not started once the call is aborted', async () => {
    const { registry, dispatcher, gates, batches } = await onWorkspace();
    const model = new MockLanguageModelV3({ doGenerate: [callsStep(turn), textStep('Done.')] });
    const stop = new AbortController();
    const run = generateText({
      model,
      tools: withToolwaves(toAiSdkTools(registry, { execute: true }), { dispatcher }),
      stopWhen: twoSteps,
      prompt,
      abortSignal: stop.signal,
    });
    await Promise.all([gates.started('e1'), gates.started('rb')]);

    stop.abort(new Error('stopped by the user'));
    for (const { id } of EDIT_TURN) gates.open(id); // a call that started now would run to its end
    await expect(run).rejects.toThrow();
    await batches.until(1); // the turn has settled: nothing is left to start

    expect(gates.startedIds().sort()).toEqual(['e1', 'rb']);
  });

  it("passes a tool's error to the AI SDK as that tool's error, and a refused call as a tool-error", async () => {
    const { dispatcher } = await onWorkspace();
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsStep([
          { id: 'r1', name: 'read_file', input: { path: 'b.txt' } },
          { id: 'bad', name: 'read_file', input: { path: 42 } },
        ]),
        textStep('Sorry.'),
      ],
    });
    const readFile = tool({
      description: 'Read a file',
      inputSchema: z.object({ path: z.unknown() }),
      execute: async (): Promise<string> => {
        throw new Error('disk on fire');
      },
    });
    await generateText({
      model,
      tools: withToolwaves({ read_file: readFile }, { dispatcher }),
      stopWhen: twoSteps,
      prompt,
    });
    const [answers] = toolResultsIn(model.doGenerateCalls[1]!.prompt);
    expect(answers?.[0]?.slice(0, 2)).toEqual(['r1', 'error-text']);
    expect(String(answers?.[0]?.[2])).toContain('disk on fire'); // "Error: disk on fire" in ai 7
    expect(answers?.[1]?.slice(0, 2)).toEqual(['bad', 'error-text']);
    expect(String(answers?.[1]?.[2])).toContain('`path`');
  });

  it('names the option and the value when the dispatcher is missing', () => {
    expect(() => withToolwaves({}, { dispatcher: undefined as never })).toThrow(
      new ToolLoopError({
        code: 'invalid_options',
        message:
          'Expected `dispatcher` to be a Dispatcher (with openTurn), got `undefined` (undefined)',
      }),
    );
  });

  it('refuses an unknown option, naming the one meant, and a registry where the dispatcher belongs', () => {
    expect(() => withToolwaves({}, { dispatcher: {}, dispatchr: {} } as never)).toThrow(
      new ToolLoopError({
        code: 'invalid_options',
        message:
          'Unknown option `dispatchr` in the options of withToolwaves; did you mean `dispatcher`? The options are `dispatcher`, `modelOrdering`',
      }),
    );
    expect(() => withToolwaves({}, { dispatcher: new ToolRegistry() as never })).toThrow(
      'Expected `dispatcher` to be a Dispatcher (with openTurn), got a ToolRegistry',
    );
    expect(() => withToolwaves(undefined as never, { dispatcher: {} as never })).toThrow(
      'Expected the tools of withToolwaves to be a ToolSet (an object of AI SDK tools), got `undefined` (undefined)',
    );
  });

  it('toAiSdkTools names a wrong registry and an unknown option', () => {
    expect(() => toAiSdkTools(undefined as never)).toThrow(
      'Expected `registry` to be a ToolRegistry, got `undefined` (undefined)',
    );
    expect(() => toAiSdkTools(new ToolRegistry(), { executes: true } as never)).toThrow(
      'Unknown option `executes` in the options of toAiSdkTools; did you mean `execute`? The options are `execute`, `modelOrdering`',
    );
  });
});
