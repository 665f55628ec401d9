import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CallWritten, runAgentLoop, type SessionRecord } from '../src/agent-loop.js';
import { ScriptedModel } from '../src/scripted-model.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * One turn, no text: write a, read b, write a. Each input ({"path":"a"}) is 12 characters of
 * JSON: 12 + 3 = 15 tokens; at 15 tokens/s each call takes 1000 ms to write, so the calls are
 * written at 1000, 2000 and 3000 ms, when the model stops. Every call then takes 100 ms.
 */
function setUp() {
  const fsAccess = (mode: 'read' | 'write') => (input: unknown) => [
    { key: `fs:/${(input as { path: string }).path}`, mode },
  ];
  const write = new MockTool({
    name: 'write',
    concurrencySafe: true,
    access: fsAccess('write'),
    delayMs: 100,
  });
  const read = new MockTool({
    name: 'read',
    concurrencySafe: true,
    access: fsAccess('read'),
    delayMs: 100,
  });
  const registry = new ToolRegistry().add(write).add(read);
  const model = new ScriptedModel({
    turns: [
      {
        text: '',
        calls: [
          { name: 'write', input: { path: 'a' } },
          { name: 'read', input: { path: 'b' } },
          { name: 'write', input: { path: 'a' } },
        ],
      },
    ],
    tokensPerSecond: 15,
  });
  // A streamed turn's writes start while the model writes (not held for the message's end).
  const dispatcher = new Dispatcher({ registry, mode: 'parallel', whileStreaming: 'all' });
  return { write, read, dispatcher, model };
}

async function play(stream: boolean) {
  const { write, read, dispatcher, model } = setUp();
  const written: CallWritten[] = [];
  const session = trackPromise<SessionRecord>(
    runAgentLoop({ model, dispatcher, stream, onCallWritten: (call) => written.push(call) }),
  );
  return { write, read, written, session };
}

describe('a streamed turn (--stream), in virtual time', () => {
  it('starts each call once written and clear of its conflicts, while later calls are written', async () => {
    const { write, read, written, session } = await play(true);
    await vi.advanceTimersByTimeAsync(1_500);
    // the first write ran before the model had written the second call
    expect(written.map((call) => call.atMs)).toEqual([1_000]);
    expect(write.calls.map((call) => [call.startedAt, call.endedAt])).toEqual([[1_000, 1_100]]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(read.calls.map((call) => call.startedAt)).toEqual([2_000]);
    expect(write.calls.map((call) => call.startedAt)).toEqual([1_000, 3_000]);

    const turn = session.value?.turns[0];
    expect(turn?.results.map((result) => result.toolCallId)).toEqual([
      'call_1_1',
      'call_1_2',
      'call_1_3',
    ]);
    expect(turn?.plan).toBeUndefined();
    expect(turn?.writingMs).toBe(3_000);
    expect(turn?.latencyMs).toBe(3_100); // first call token at 0, last result at 3100
    expect(turn?.afterWritingMs).toBe(100);
  });
});

describe('a whole turn (--no-stream), in virtual time', () => {
  it('waits for the model to finish writing, then runs greedy waves', async () => {
    const { write, read, written, session } = await play(false);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(written.map((call) => call.atMs)).toEqual([1_000, 2_000]);
    expect(write.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000);
    // waves [write a, read b], [write a]
    expect(write.calls.map((call) => call.startedAt)).toEqual([3_000, 3_100]);
    expect(read.calls.map((call) => call.startedAt)).toEqual([3_000]);

    const turn = session.value?.turns[0];
    expect(turn?.plan?.waves.map((wave) => wave.calls)).toEqual([[0, 1], [2]]);
    expect(turn?.latencyMs).toBe(3_200);
    expect(turn?.afterWritingMs).toBe(200);
  });
});
