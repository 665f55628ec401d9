import { describe, expect, it } from 'vitest';
import {
  StepTurns,
  type ToolCall,
  type ToolContext,
  type ToolOutput,
  type ToolResult,
  type TurnLike,
  type TurnSource,
} from '../src/index.js';

type Execute = (input: unknown, context: ToolContext) => Promise<string | ToolOutput>;

/**
 * A turn source that records what StepTurns asks of it: which turn each call went to, and when
 * turns close. A call's `execute` runs when the test says so (`start`), as a dispatcher would
 * once the call may start; `answer` resolves a call without running it (a soft error).
 */
function recordingSource() {
  const turns: { calls: string[]; closed: boolean }[] = [];
  const waiting = new Map<
    string,
    { execute: Execute | undefined; done: (r: ToolResult) => void }
  >();
  const result = (id: string, content: string, isError = false): ToolResult => ({
    toolCallId: id,
    toolName: 'tool',
    content,
    isError,
    durationMs: 0,
  });
  const source: TurnSource = {
    openTurn(): TurnLike {
      const turn = { calls: [] as string[], closed: false };
      turns.push(turn);
      return {
        run: (call: ToolCall, execute?: Execute) =>
          new Promise<ToolResult>((done) => {
            turn.calls.push(call.id);
            waiting.set(call.id, { execute, done });
          }),
        close: async () => {
          turn.closed = true;
        },
      };
    },
  };
  return {
    source,
    turns,
    /** Runs the call's execute as the dispatcher would, and answers the call with its output. */
    async start(id: string): Promise<void> {
      const entry = waiting.get(id);
      const signal = new AbortController().signal;
      try {
        const output = await entry?.execute?.(undefined, { toolCallId: id, signal, attempt: 1 });
        entry?.done(result(id, typeof output === 'string' ? output : (output?.content ?? '')));
      } catch (error) {
        entry?.done(result(id, String(error), true));
      }
    },
    answer(id: string, content: string): void {
      waiting.get(id)?.done(result(id, content, true));
    },
  };
}

const error = (message: string) => new Error(message);
const call = (id: string): ToolCall => ({ id, name: 'tool', input: {} });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('StepTurns', () => {
  it('puts the calls of one step into one turn, each step its own, and closes a turn once idle', async () => {
    const recorded = recordingSource();
    const turns = new StepTurns({ dispatcher: recorded.source, error });
    const run = (step: string, id: string) =>
      turns.run({ step, call: call(id), execute: async () => `ran ${id}`, output: (v) => v });

    const a1 = run('A', 'a1');
    const a2 = run('A', 'a2');
    const b1 = run('B', 'b1');
    expect(recorded.turns.map((turn) => turn.calls)).toEqual([['a1', 'a2'], ['b1']]);

    await recorded.start('a1');
    expect(await a1).toEqual({ kind: 'ran', value: 'ran a1' });
    await tick();
    expect(recorded.turns[0]?.closed).toBe(false); // a2 still waits
    await recorded.start('a2');
    await a2;
    await tick();
    expect(recorded.turns[0]?.closed).toBe(true);
    const a3 = run('A', 'a3'); // the step's turn was closed: a new one opens
    expect(recorded.turns.map((turn) => turn.calls)).toEqual([['a1', 'a2'], ['b1'], ['a3']]);
    await Promise.all([recorded.start('b1'), recorded.start('a3')]);
    await Promise.all([b1, a3]);
  });

  it('hands back what the framework threw, and what toolwaves answered without running', async () => {
    const recorded = recordingSource();
    const turns = new StepTurns({ dispatcher: recorded.source, error });
    const failure = new Error('disk on fire');
    const threw = turns.run({
      step: 1,
      call: call('t'),
      execute: async () => {
        throw failure;
      },
      output: String,
    });
    const answered = turns.run({
      step: 1,
      call: call('n'),
      execute: async () => 'x',
      output: String,
    });
    await recorded.start('t');
    recorded.answer('n', 'Invalid input for tool `tool`');
    expect(await threw).toEqual({ kind: 'threw', error: failure });
    expect(await answered).toMatchObject({
      kind: 'answered',
      result: { content: 'Invalid input for tool `tool`', isError: true },
    });
  });

  it('answers a waiting call with the abort reason and never runs it; leaves a started one be', async () => {
    const recorded = recordingSource();
    const turns = new StepTurns({ dispatcher: recorded.source, error });
    const stop = new AbortController();
    const ran: string[] = [];
    let finish: (value: string) => void = () => undefined;
    const started = turns.run({
      step: 1,
      call: call('s'),
      signal: stop.signal,
      execute: () => {
        ran.push('s');
        return new Promise<string>((resolve) => {
          finish = resolve;
        });
      },
      output: String,
    });
    const waiting = turns.run({
      step: 1,
      call: call('w'),
      signal: stop.signal,
      execute: async () => {
        ran.push('w');
        return 'w';
      },
      output: String,
    });
    const startedRun = recorded.start('s');
    await tick();
    const reason = new Error('stopped');
    stop.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await recorded.start('w'); // the dispatcher lets it start now: its implementation must not run
    finish('done');
    await startedRun;
    expect(await started).toEqual({ kind: 'ran', value: 'done' });
    expect(ran).toEqual(['s']);
    await expect(
      turns.run({
        step: 1,
        call: call('late'),
        signal: stop.signal,
        execute: async () => '',
        output: String,
      }),
    ).rejects.toBe(reason);
  });

  it('names the option and the value when the dispatcher cannot open turns', () => {
    expect(() => new StepTurns({ dispatcher: {} as never, error })).toThrow(
      'Expected `dispatcher` to be a Dispatcher (with openTurn), got `{}` (object)',
    );
  });
});
