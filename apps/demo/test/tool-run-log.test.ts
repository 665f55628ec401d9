import { describe, expect, it } from 'vitest';
import { callFate, type ToolRunLine } from '../src/tool-run-log.js';

const ok = { isError: false, content: 'done' };
const start = (call: string, pid: number): ToolRunLine => ({ e: 'start', call, pid });
const end = (call: string, pid: number): ToolRunLine => ({ e: 'end', call, pid });

describe('what became of a call of the durable demo', () => {
  // Process 1 was killed, then process 2; process 3 finished the turn.
  const killed = [1, 2];
  const runs = [
    start('a', 1),
    end('a', 1),
    start('b', 1),
    start('b', 2),
    end('b', 2),
    start('c', 2),
    start('d', 3),
    end('d', 3),
  ];

  it('ran once in a process that was killed later: answered from the journal', () => {
    expect(callFate({ callId: 'a', result: ok, runs, killed })).toBe('journal');
  });

  it('ran in two processes: ran again', () => {
    expect(callFate({ callId: 'b', result: ok, runs, killed })).toBe('rerun');
  });

  it('answered "its effect is unknown": outcome unknown, whatever ran', () => {
    const unknown = {
      isError: true,
      content:
        'Tool `run_check` was cut off by a crash while it ran (call `c`): its effect is unknown (it may or may not have taken place); it was not retried',
    };
    expect(callFate({ callId: 'c', result: unknown, runs, killed })).toBe('unknown');
  });

  it('ran only in the last process: after a restart; without crashes: once', () => {
    expect(callFate({ callId: 'd', result: ok, runs, killed })).toBe('after');
    expect(callFate({ callId: 'd', result: ok, runs, killed: [] })).toBe('once');
  });
});
