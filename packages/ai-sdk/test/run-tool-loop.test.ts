import { ToolRegistry } from '@toolwaves/core';
import { DispatchError, type DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runToolLoop, type ToolLoopResult, type ToolLoopStep } from '../src/index.js';
import {
  callsStep,
  overlap,
  type ScriptedCall,
  textStep,
  toolResultsIn,
  track,
  workspace,
} from './fixtures.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Step 1: two writes of a.ts (conflicting), a read of b.ts and a grep (independent), a read of a.ts. */
const firstStep: ScriptedCall[] = [
  { id: 'c1', name: 'write_file', input: { path: 'a.ts', text: 'v1' } },
  { id: 'c2', name: 'read_file', input: { path: 'b.ts' } },
  { id: 'c3', name: 'write_file', input: { path: 'a.ts', text: 'v2' } },
  { id: 'c4', name: 'grep', input: { pattern: 'user' } },
  { id: 'c5', name: 'read_file', input: { path: 'a.ts' } },
];

async function settle(promise: Promise<ToolLoopResult>, ms = 10_000): Promise<ToolLoopResult> {
  const done = track(promise);
  await vi.advanceTimersByTimeAsync(ms);
  if (done.status === 'rejected') throw done.error;
  expect(done.status).toBe('resolved');
  return done.value!;
}

describe('runToolLoop with the AI SDK mock model', () => {
  it('runs a multi-step conversation: planned waves, no conflicting overlap, results in call order', async () => {
    const { registry, readFile, writeFile, grep } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsStep(firstStep, 'Let me look.'),
        callsStep([{ id: 'c6', name: 'read_file', input: { path: 'c.ts' } }]),
        textStep('Renamed `user` in a.ts.'),
      ],
    });
    const events: [number, DispatchEvent][] = [];
    const steps: ToolLoopStep[] = [];

    const result = await settle(
      runToolLoop({
        model,
        dispatcher,
        prompt: 'Rename user in a.ts',
        onStep: (step) => {
          steps.push(step);
        },
        onEvent: (event, stepNumber) => events.push([stepNumber, event]),
      }),
    );

    // the final text, three model calls, three steps
    expect(result.text).toBe('Renamed `user` in a.ts.');
    expect(result.finishReason).toBe('stop');
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(steps).toEqual(result.steps);
    expect(result.steps.map((s) => [s.stepNumber, s.text, s.finishReason, s.calls.length])).toEqual(
      [
        [0, 'Let me look.', 'tool-calls', 5],
        [1, '', 'tool-calls', 1],
        [2, 'Renamed `user` in a.ts.', 'stop', 0],
      ],
    );

    // the model was shown the tools, without anything to execute them on its side
    const shown = model.doGenerateCalls[0]!.tools ?? [];
    expect(shown.map((t) => t.name)).toEqual(['grep', 'read_file', 'write_file']);
    expect(shown.find((t) => t.name === 'read_file')).toMatchObject({
      type: 'function',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    });

    // the tool results the model got on the next step: one tool message, in call order
    expect(toolResultsIn(model.doGenerateCalls[1]!.prompt)).toEqual([
      [
        ['c1', 'text', 'wrote a.ts'],
        ['c2', 'text', 'contents of b.ts'],
        ['c3', 'text', 'wrote a.ts'],
        ['c4', 'text', 'matches for user'],
        ['c5', 'text', 'contents of a.ts'],
      ],
    ]);
    expect(toolResultsIn(model.doGenerateCalls[2]!.prompt)).toEqual([
      expect.any(Array),
      [['c6', 'text', 'contents of c.ts']],
    ]);

    // our planner's waves: c1, c2, c4 together; c3 after c1; c5 after c3
    const [, start] = events.find(([n, e]) => n === 0 && e.type === 'batch-start')!;
    expect(start.type === 'batch-start' && start.plan?.waves.map((w) => w.calls)).toEqual([
      [0, 1, 3],
      [2],
      [4],
    ]);

    // in virtual time: the conflicting calls did not overlap, the independent ones did
    const [w1, w3] = writeFile.calls;
    const [readB, readA, readC] = readFile.calls;
    const [search] = grep.calls;
    expect([w1, w3, readA, readB, readC, search].every((c) => c !== undefined)).toBe(true);
    expect(overlap(w1!, w3!)).toBe(false);
    expect(overlap(w3!, readA!)).toBe(false);
    expect(overlap(w1!, readA!)).toBe(false);
    expect(w3!.startedAt).toBeGreaterThanOrEqual(w1!.endedAt!);
    expect(readA!.startedAt).toBeGreaterThanOrEqual(w3!.endedAt!);
    expect(overlap(w1!, readB!)).toBe(true);
    expect(overlap(w1!, search!)).toBe(true);
    expect(search!.endedAt).toBeLessThan(readB!.endedAt!); // finished first, answered in its slot
    expect([w1!.startedAt, w3!.startedAt, readA!.startedAt, readC!.startedAt]).toEqual([
      0, 100, 200, 300,
    ]);

    // the conversation: user, then per step the assistant message and the tool answers
    expect(result.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(result.responseMessages).toEqual(result.messages.slice(1));
  });

  it('answers calls the AI SDK could not parse once, with the dispatcher’s soft errors, in order', async () => {
    const { registry } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsStep([
          { id: 'bad-json', name: 'read_file', input: '{"path": "a.ts"' },
          { id: 'unknown', name: 'delete_everything', input: {} },
          { id: 'bad-field', name: 'read_file', input: { path: 42 } },
          { id: 'fine', name: 'read_file', input: { path: 'a.ts' } },
        ]),
        textStep('done'),
      ],
    });

    const result = await settle(runToolLoop({ model, dispatcher, prompt: 'go' }));

    const answers = toolResultsIn(model.doGenerateCalls[1]!.prompt);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.map(([id, type]) => [id, type])).toEqual([
      ['bad-json', 'error-text'],
      ['unknown', 'error-text'],
      ['bad-field', 'error-text'],
      ['fine', 'text'],
    ]);
    const [badJson, unknown, badField] = answers[0]!.map(([, , value]) => String(value));
    expect(badJson).toMatch(/^The arguments of the call to `read_file` were not valid JSON/);
    expect(unknown).toMatch(/delete_everything/);
    expect(unknown).toMatch(/grep.*read_file.*write_file/);
    expect(badField).toBe(
      'Invalid input for tool `read_file`: `path`: expected string, received number',
    );
    expect(result.steps[0]!.results.map((r) => r.isError)).toEqual([true, true, true, false]);
  });

  it('stops at maxSteps with every call answered', async () => {
    const { registry } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doGenerate: (options) =>
        Promise.resolve(
          callsStep([{ id: `g${options.prompt.length}`, name: 'grep', input: { pattern: 'x' } }]),
        ),
    });

    const result = await settle(
      runToolLoop({
        model,
        dispatcher,
        messages: [{ role: 'user', content: 'loop' }],
        maxSteps: 2,
      }),
    );

    expect(model.doGenerateCalls).toHaveLength(2);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.steps.map((s) => s.calls.map((c) => c.id))).toEqual([['g1'], ['g3']]);
    expect(result.messages.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'g3',
          toolName: 'grep',
          output: { type: 'text', value: 'matches for x' },
        },
      ],
    });
  });

  it('passes settings to every model call', async () => {
    const { registry } = workspace();
    const dispatcher = new Dispatcher({ registry });
    const model = new MockLanguageModelV3({
      doGenerate: [callsStep([{ id: 'a', name: 'grep', input: { pattern: 'x' } }]), textStep('ok')],
    });
    await settle(
      runToolLoop({
        model,
        dispatcher,
        prompt: 'go',
        settings: { system: 'Be brief.', temperature: 0.25 },
      }),
    );
    expect(model.doGenerateCalls.map((c) => [c.temperature, c.prompt[0]])).toEqual([
      [0.25, { role: 'system', content: 'Be brief.' }],
      [0.25, { role: 'system', content: 'Be brief.' }],
    ]);
  });

  it('fails with the dispatcher’s cancelled error and asks the model nothing more', async () => {
    const { registry, readFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsStep([
          { id: 'r1', name: 'read_file', input: { path: 'a' } },
          { id: 'r2', name: 'read_file', input: { path: 'b' } },
        ]),
        textStep('never'),
      ],
    });
    const controller = new AbortController();
    const done = track(runToolLoop({ model, dispatcher, prompt: 'go', signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(40);
    expect(readFile.live).toBe(2);
    controller.abort();
    await vi.advanceTimersByTimeAsync(1_000);

    expect(done.status).toBe('rejected');
    expect(done.error).toBeInstanceOf(DispatchError);
    expect((done.error as DispatchError).code).toBe('cancelled');
    expect(readFile.calls.map((c) => c.outcome)).toEqual(['aborted', 'aborted']);
    expect(model.doGenerateCalls).toHaveLength(1);
  });
  it('stops the dispatch when onEvent throws, and fails with its error', async () => {
    const { registry, readFile } = workspace();
    const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsStep([
          { id: 'r1', name: 'read_file', input: { path: 'a' } },
          { id: 'r2', name: 'read_file', input: { path: 'b' } },
        ]),
        textStep('never'),
      ],
    });
    const broken = new Error('observer broke');
    const done = track(
      runToolLoop({
        model,
        dispatcher,
        prompt: 'go',
        onEvent: (event) => {
          if (event.type === 'call-start' && event.toolCallId === 'r2') throw broken;
        },
      }),
    );
    await vi.advanceTimersByTimeAsync(1_000);

    expect(done.status).toBe('rejected');
    expect(done.error).toBe(broken);
    // `call-start` comes before the tool runs: r1 ran and was aborted, r2 never started.
    expect(readFile.calls.map((c) => [c.input, c.outcome, c.endedAt])).toEqual([
      [{ path: 'a' }, 'aborted', 0],
    ]);
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe('runToolLoop options', () => {
  const { registry } = workspace();
  const dispatcher = new Dispatcher({ registry });
  const model = new MockLanguageModelV3({ doGenerate: textStep('hi') });

  it.each([
    [{ prompt: undefined }, 'Expected `prompt` or `messages`, got neither'],
    [{ messages: [] }, 'Expected `prompt` or `messages`, got both'],
    [{ prompt: 3 }, 'Expected `prompt` to be a string, got `3` (number)'],
    [{ maxSteps: 0 }, 'Expected `maxSteps` to be an integer from 1 and up, got `0` (number)'],
    [{ maxSteps: 1.5 }, 'Expected `maxSteps` to be an integer from 1 and up, got `1.5` (number)'],
    [{ dispatcher: {} }, 'Expected `dispatcher` to be a Dispatcher, got `{}` (object)'],
    [{ stream: 'yes' }, 'Expected `stream` to be a boolean, got `"yes"` (string)'],
    [
      { whileStreaming: 'writes' },
      "Expected `whileStreaming` to be 'all' or 'read-only', got `\"writes\"` (string)",
    ],
    [
      { dispatcher: undefined },
      'Expected `dispatcher` to be a Dispatcher, got `undefined` (undefined)',
    ],
    [{ model: undefined }, 'Expected `model` to be a language model, got `undefined` (undefined)'],
    [
      { maxStep: 3 },
      'Unknown option `maxStep` in the options of runToolLoop; did you mean `maxSteps`? The options are `model`, `dispatcher`, `stream`, `whileStreaming`, `prompt`, `messages`, `maxSteps`, `signal`, `onStep`, `onEvent`, `settings`',
    ],
    [
      { dispatcher: new ToolRegistry() },
      'Expected `dispatcher` to be a Dispatcher, got a ToolRegistry',
    ],
    [{ onStep: 'log' }, 'Expected `onStep` to be a function, got `"log"` (string)'],
  ])('refuses %j before calling the model', async (bad, message) => {
    const options = { model, dispatcher, prompt: 'hi', ...bad } as Parameters<
      typeof runToolLoop
    >[0];
    await expect(runToolLoop(options)).rejects.toMatchObject({
      name: 'ToolLoopError',
      code: 'invalid_options',
      message,
    });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('answers without tools in one step', async () => {
    const answering = new MockLanguageModelV3({ doGenerate: textStep('hi') });
    const result = await runToolLoop({ model: answering, dispatcher, prompt: 'hi' });
    expect([result.text, result.steps.length, result.messages.map((m) => m.role)]).toEqual([
      'hi',
      1,
      ['user', 'assistant'],
    ]);
  });
});
