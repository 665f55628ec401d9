import { Agent, Runner, tool } from '@openai/agents-core';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { describe, expect, it } from 'vitest';
import { withToolwaves } from '../src/index.js';
import {
  callingModel,
  objectParameters,
  outputsSeenBy,
  requestScope,
  until,
} from './agents-probe.js';

/** The registry declares nothing: each call runs alone, so the second waits for the first. */
const dispatcher = () => new Dispatcher({ registry: new ToolRegistry(), mode: 'eager' });
const runner = new Runner({ tracingDisabled: true });

/** Function tools that hold until their signal aborts (as a `fetch` would). */
function heldTools() {
  const started: string[] = [];
  const held = (name: string) =>
    tool({
      name,
      description: 'Holds',
      parameters: objectParameters,
      strict: false,
      execute: (input, _context, details) => {
        started.push((input as { path: string }).path);
        return new Promise<string>((_resolve, reject) => {
          const signal = details?.signal;
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
    });
  return { tools: [held('first'), held('second')], started };
}

const reason = new Error('stopped by the user');

describe("aborts answered as the Agents SDK's own run loop answers them", () => {
  it('the run rejects as it does without toolwaves; the waiting call never runs', async () => {
    const abortedRun = async (scheduled: boolean) => {
      const { tools, started } = heldTools();
      const model = callingModel({
        calls: [
          { id: 'c1', name: 'first', path: 'a', n: 0 },
          { id: 'c2', name: 'second', path: 'b', n: 1 },
        ],
        runs: 1,
      });
      const agent = new Agent({ name: 'Holder', model, tools });
      const stop = new AbortController();
      const run = runner.run(
        scheduled ? withToolwaves(agent, { dispatcher: dispatcher() }) : agent,
        'Go.',
        { signal: stop.signal },
      );
      // alone, both calls start at once; scheduled, the second waits for the first
      await until(() => started.length === (scheduled ? 1 : 2));
      stop.abort(reason);
      const error = await run.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      return { error, started, modelCalls: model.calls.length };
    };
    const plain = await abortedRun(false);
    const ours = await abortedRun(true);
    expect(plain.error).toBe(reason);
    expect(ours.error).toBe(reason);
    expect(ours.modelCalls).toBe(plain.modelCalls);
    expect(plain.started.sort()).toEqual(['a', 'b']);
    expect(ours.started).toEqual(['a']);
  });
});

describe('two runs of one agent with equal call ids', () => {
  it('answers each run with its own result, also when the runs share one signal', async () => {
    const started: string[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const echo = tool({
      name: 'echo',
      description: 'Echoes',
      parameters: objectParameters,
      strict: false,
      execute: async (input) => {
        started.push(String(requestScope.getStore()));
        if (started.length === 2) release(); // both runs' calls are running at once
        await released;
        return `${requestScope.getStore()}:${(input as { path: string }).path}`;
      },
    });
    const model = callingModel({ calls: [{ id: 'c1', name: 'echo', path: 'a', n: 0 }], runs: 2 });
    const agent = withToolwaves(new Agent({ name: 'Echo', model, tools: [echo] }), {
      dispatcher: dispatcher(),
    });
    const shared = new AbortController(); // one call alone gets the run's own signal: this one
    const runs = ['A', 'B'].map((name) =>
      requestScope.run(name, () => runner.run(agent, 'Echo a.', { signal: shared.signal })),
    );
    // a run refused its call would end without it: let the other finish then
    void Promise.race(runs).then(release, release);
    const results = await Promise.all(runs);

    expect(results.map((result) => result.finalOutput)).toEqual(['Done.', 'Done.']);
    const answered = [outputsSeenBy(model, 2), outputsSeenBy(model, 3)].map(
      (outputs) => outputs[0]?.[1],
    );
    expect(answered.sort()).toEqual(['A:a', 'B:a']);
  });
});
