import type { ToolCall, ToolResult } from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedModel } from '../src/scripted-model.js';
import { scriptedSession } from '../src/scripted-session.js';
import { callTokens } from '../src/turn-tokens.js';

async function collect(calls: AsyncIterable<ToolCall>): Promise<ToolCall[]> {
  const all: ToolCall[] = [];
  for await (const call of calls) all.push(call);
  return all;
}

const answer = (id: string): ToolResult => ({
  toolCallId: id,
  toolName: 't',
  content: '',
  isError: false,
  durationMs: 0,
});

describe('ScriptedModel', () => {
  it('plays its turns with fresh ids, then ends with text', async () => {
    const model = new ScriptedModel({
      turns: [
        {
          text: 'one',
          calls: [
            { name: 'a', input: {} },
            { name: 'b', input: {} },
          ],
        },
        { text: 'two', calls: [{ name: 'c', input: {} }] },
      ],
      finalText: 'bye',
      tokensPerSecond: Number.POSITIVE_INFINITY,
    });
    const first = await model.next([]);
    expect((await collect(first.calls)).map((c) => c.id)).toEqual(['call_1_1', 'call_1_2']);
    const second = await model.next([answer('call_1_1'), answer('call_1_2')]);
    expect(second.writing.text).toBe('two');
    expect(await collect(second.calls)).toEqual([{ id: 'call_2_1', name: 'c', input: {} }]);
    const last = await model.next([answer('call_2_1')]);
    expect(last.writing.text).toBe('bye');
    expect(await collect(last.calls)).toEqual([]);
  });

  it('refuses a turn whose calls were not all answered in order, like a provider', async () => {
    const model = new ScriptedModel({
      turns: [
        {
          text: '',
          calls: [
            { name: 'a', input: {} },
            { name: 'b', input: {} },
          ],
        },
      ],
      tokensPerSecond: Number.POSITIVE_INFINITY,
    });
    await collect((await model.next([])).calls);
    await expect(model.next([answer('call_1_2'), answer('call_1_1')])).rejects.toThrow(
      'expected answers to [call_1_1, call_1_2], got [call_1_2, call_1_1]',
    );
  });

  it('keeps every path of the session inside the folder it created', () => {
    const paths = scriptedSession('toolwaves-demo-x').flatMap((turn) =>
      turn.calls.flatMap((call) => {
        const input = call.input as Record<string, unknown>;
        return ['path', 'from', 'to'].flatMap((key) =>
          typeof input[key] === 'string' ? [input[key] as string] : [],
        );
      }),
    );
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths)
      expect(path.startsWith('toolwaves-demo-x/') || path === 'toolwaves-demo-x/.').toBe(true);
  });

  it('has the shape of the worked example on turn 2', () => {
    const names = scriptedSession('.')[1]?.calls.map((call) => call.name);
    expect(names).toEqual(['read_file', 'read_file', 'run_check', 'grep', 'read_file', 'stat']);
  });
});

describe('ScriptedModel streaming at a token rate (virtual time)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the text, then each call, its tokens following from its arguments', async () => {
    vi.useFakeTimers();
    // 'Look.' is 5 characters: 2 tokens. {"path":"a.ts"} is 15 characters: 12 + 4 = 16 tokens;
    // {"path":"src/long-name.ts"} is 27 characters: 12 + 7 = 19 tokens. At 20 tokens/s a token
    // takes 50 ms: the first call is written at (2 + 16) × 50 = 900 ms, the second at
    // (2 + 16 + 19) × 50 = 1850 ms, the first call's first token at 2 × 50 = 100 ms.
    const model = new ScriptedModel({
      turns: [
        {
          text: 'Look.',
          calls: [
            { name: 'read_file', input: { path: 'a.ts' } },
            { name: 'read_file', input: { path: 'src/long-name.ts' } },
          ],
        },
      ],
      tokensPerSecond: 20,
    });
    const turn = await model.next([]);
    const startedAt = turn.writing.startedAt;
    const reader = turn.calls[Symbol.asyncIterator]();
    const first = trackPromise(reader.next());
    await vi.advanceTimersByTimeAsync(899);
    expect(first.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(first.value?.value).toMatchObject({ id: 'call_1_1' });
    expect(turn.writing.firstCallTokenAt).toBe(startedAt + 100);
    expect(turn.writing.endedAt).toBeUndefined();
    const second = trackPromise(reader.next());
    await vi.advanceTimersByTimeAsync(949);
    expect(second.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(second.value?.value).toMatchObject({ id: 'call_1_2' });
    await expect(reader.next()).resolves.toEqual({ value: undefined, done: true });
    expect(turn.writing.endedAt).toBe(startedAt + 1850);
  });

  it("counts a call as 12 tokens plus a quarter of its arguments' JSON length", () => {
    expect(callTokens({ input: {} })).toBe(12 + 1); // '{}': 2 characters
    expect(callTokens({ input: { path: 'a.ts' } })).toBe(12 + 4); // 15 characters
  });
});
