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
  // the calls handed over and not yet answered, by id, first handed over first
  const waiting = new Map<
    string,
    { execute: Execute | undefined; done: (r: ToolResult) => void }[]
  >();
  const next = (id: string) => waiting.get(id)?.shift();
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
            waiting.set(call.id, [...(waiting.get(call.id) ?? []), { execute, done }]);
          }),
        close: async () => {
          turn.closed = true;
        },
      };
    },
  };
  const results = new Map<string, ToolResult>();
  return {
    source,
    turns,
    /** What each call's execute gave the dispatcher, by call id. */
    results,
    /** Runs the call's execute as the dispatcher would, and answers the call with its output. */
    async start(id: string): Promise<void> {
      const entry = next(id);
      const signal = new AbortController().signal;
      try {
        const output = await entry?.execute?.(undefined, { toolCallId: id, signal, attempt: 1 });
        const answer = result(
          id,
          typeof output === 'string' ? output : (output?.content ?? ''),
          typeof output === 'object' && output.isError === true,
        );
        results.set(id, answer);
        entry?.done(answer);
      } catch (error) {
        results.set(id, result(id, String(error), true));
        entry?.done(result(id, String(error), true));
      }
    },
    answer(id: string, content: string): void {
      next(id)?.done(result(id, content, true));
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

  it('answers a waiting call `aborted` with the reason and never runs it; leaves a started one be', async () => {
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
    expect(await waiting).toEqual({ kind: 'aborted', reason });
    await recorded.start('w'); // the dispatcher lets it start now: its implementation must not run
    finish('done');
    await startedRun;
    expect(await started).toEqual({ kind: 'ran', value: 'done' });
    expect(ran).toEqual(['s']);
    expect(
      await turns.run({
        step: 1,
        call: call('late'),
        signal: stop.signal,
        execute: async () => '',
        output: String,
      }),
    ).toEqual({ kind: 'aborted', reason });
  });

  it('keeps the calls of two runs apart, even with equal steps and call ids', async () => {
    const recorded = recordingSource();
    const turns = new StepTurns({ dispatcher: recorded.source, error });
    const runA = {};
    const runB = {};
    const run = (owner: object, value: string) =>
      turns.run({
        run: owner,
        step: 'm1',
        call: call('c1'),
        execute: async () => value,
        output: String,
      });

    const a = run(runA, 'a');
    const b = run(runB, 'b');
    expect(recorded.turns.map((turn) => turn.calls)).toEqual([['c1'], ['c1']]);
    await recorded.start('c1'); // run A's
    expect(await a).toEqual({ kind: 'ran', value: 'a' });
    await tick();
    expect(recorded.turns.map((turn) => turn.closed)).toEqual([true, false]);
    await recorded.start('c1'); // run B's
    expect(await b).toEqual({ kind: 'ran', value: 'b' });
  });

  it("opens a retried step's next turn once every call of the previous attempt has settled", async () => {
    const recorded = recordingSource();
    const turns = new StepTurns({ dispatcher: recorded.source, error });
    const owner = {};
    const ran: string[] = [];
    const run = (id: string, attempt: number) =>
      turns.run({
        run: owner,
        step: 'm1',
        call: call(id),
        execute: async () => {
          ran.push(`${id}#${attempt}`);
          return `${id}#${attempt}`;
        },
        output: String,
      });

    const first1 = run('c1', 1);
    const first2 = run('c2', 1);
    await recorded.start('c1'); // c1 ends; c2 of the first attempt is still waiting
    expect(await first1).toEqual({ kind: 'ran', value: 'c1#1' });
    const retry1 = run('c1', 2); // the step again (a retry): not a duplicate of the first c1
    const retry2 = run('c2', 2);
    await tick();
    // the retry's calls are held back while the first attempt's c2 has not settled
    expect(recorded.turns.map((turn) => turn.calls)).toEqual([['c1', 'c2'], []]);
    await recorded.start('c2');
    expect(await first2).toEqual({ kind: 'ran', value: 'c2#1' });
    await tick();
    expect(recorded.turns.map((turn) => turn.calls)).toEqual([
      ['c1', 'c2'],
      ['c1', 'c2'],
    ]);
    expect(recorded.turns[0]?.closed).toBe(true);
    await recorded.start('c1');
    await recorded.start('c2');
    expect(await retry1).toEqual({ kind: 'ran', value: 'c1#2' });
    expect(await retry2).toEqual({ kind: 'ran', value: 'c2#2' });
    expect(ran).toEqual(['c1#1', 'c2#1', 'c1#2', 'c2#2']);
  });

  it("hands back the framework's control flow as it was thrown, recorded as an answer", async () => {
    const recorded = recordingSource();
    const turns = new StepTurns({ dispatcher: recorded.source, error });
    class GraphInterrupt extends Error {
      override readonly name = 'GraphInterrupt';
    }
    const interrupt = new GraphInterrupt('asks a human');
    const failure = new Error('disk on fire');
    const controlFlow = (thrown: unknown) => thrown instanceof GraphInterrupt;
    const throwing = (id: string, thrown: Error) =>
      turns.run({
        step: 1,
        call: call(id),
        execute: async () => {
          throw thrown;
        },
        output: String,
        controlFlow,
      });
    const interrupted = throwing('i', interrupt);
    const failed = throwing('f', failure);
    await recorded.start('i');
    await recorded.start('f');
    expect(await interrupted).toEqual({ kind: 'threw', error: interrupt });
    expect(await failed).toEqual({ kind: 'threw', error: failure });
    // what the dispatcher was told: an answer for the interrupt, an error for the failure
    expect(recorded.results.get('i')).toMatchObject({
      content: '(GraphInterrupt)',
      isError: false,
    });
    expect(recorded.results.get('f')).toMatchObject({ isError: true });
  });

  it('names the option and the value when the dispatcher cannot open turns', () => {
    expect(() => new StepTurns({ dispatcher: {} as never, error })).toThrow(
      'Expected `dispatcher` to be a Dispatcher (with openTurn), got `{}` (object)',
    );
  });
});
