import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runAgentLoop, type SessionRecord } from '../src/agent-loop.js';
import { parseCliOptions } from '../src/cli-options.js';
import { LiveView } from '../src/live-view.js';
import { ScriptedModel } from '../src/scripted-model.js';
import { sessionReport } from '../src/session-report.js';
import { terminalStyle } from '../src/terminal-style.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Turn 1: write a, read b, write a, each written in 100 ms (15 tokens at 150 tokens/s: at 100,
 * 200 and 300 ms), each taking 250 ms. The read of b runs beside the first write (200-450); the
 * second write waits for the first (until 350), then runs beside the read (350-600).
 */
function playTurn() {
  const fsAccess = (mode: 'read' | 'write') => (input: unknown) => [
    { key: `fs:/${(input as { path: string }).path}`, mode },
  ];
  const tool = (name: string, mode: 'read' | 'write') =>
    new MockTool({
      name,
      concurrencySafe: true,
      access: fsAccess(mode),
      delayMs: 250,
      result: 'done',
    });
  const registry = new ToolRegistry().add(tool('write', 'write')).add(tool('read', 'read'));
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
    tokensPerSecond: 150,
  });
  const lines: string[] = [];
  const view = new LiveView({
    write: (line) => lines.push(line),
    style: terminalStyle({ stream: {}, env: { NO_COLOR: '1' } }),
  });
  const session = trackPromise<SessionRecord>(
    runAgentLoop({
      model,
      // the writes start while the model writes, as the lines below show
      dispatcher: new Dispatcher({ registry, mode: 'parallel', whileStreaming: 'all' }),
      stream: true,
      onCallWritten: (written) => view.callWritten(written),
      onTurnWritten: (_turn, writing, calls) => view.turnWritten(writing, calls),
      onEvent: (event) => view.event(event),
    }),
  );
  return { lines, session };
}

describe('one numbering of calls (#turn.call) in the live view and the report', () => {
  it('shows calls running side by side, and what each waited for, in virtual time', async () => {
    const { lines, session } = playTurn();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lines).toEqual([
      '',
      'Turn 1',
      '    ✎ #1.1 write(a)  written at 100 ms',
      '    ▶ #1.1 write(a)',
      '    ✎ #1.2 read(b)  written at 200 ms',
      '    ▶ #1.2 read(b) ∥ 1 other(s) running',
      '    ✎ #1.3 write(a)  written at 300 ms',
      '  model done writing: 3 call(s) in 300 ms',
      '    ✓ #1.1 write(a) 250 ms  done',
      '    ▶ #1.3 write(a) after #1.1 ∥ 1 other(s) running',
      '    ✓ #1.2 read(b) 250 ms  done',
      '    ✓ #1.3 write(a) 250 ms  done',
      // the stream was handed over at 0, when the model began the turn; the last result at 600
      '  turn done in 600 ms · 2 calls running at once at most',
    ]);

    const record = session.value;
    expect(record).toBeDefined();
    const report = sessionReport({
      options: parseCliOptions([]),
      model: 'scripted',
      workspace: { root: '/w', dir: '.' },
      session: record!,
      comparison: [],
      streaming: [],
    });
    expect(report.turns[0]?.calls.map((call) => [call.call, call.id])).toEqual([
      ['#1.1', 'call_1_1'],
      ['#1.2', 'call_1_2'],
      ['#1.3', 'call_1_3'],
    ]);
  });
});
