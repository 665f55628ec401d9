import type { ToolResult } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../src/scripted-model.js';
import { scriptedSession } from '../src/scripted-session.js';

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
    });
    const first = await model.next([]);
    expect(first.calls.map((c) => c.id)).toEqual(['call_1_1', 'call_1_2']);
    const second = await model.next([answer('call_1_1'), answer('call_1_2')]);
    expect(second).toEqual({ text: 'two', calls: [{ id: 'call_2_1', name: 'c', input: {} }] });
    expect(await model.next([answer('call_2_1')])).toEqual({ calls: [], text: 'bye' });
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
    });
    await model.next([]);
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
