import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import fc from 'fast-check';
import { type GeneratedOp, generatedOpArb } from './generated-ops.js';

/** A generated call with ordering edges: ids it names, its tool's `runs`, the model's flag. */
export interface EdgedOp extends GeneratedOp {
  /** Positions of earlier calls its `after` names. */
  readonly after: readonly number[] | undefined;
  /** Its tool is `op_last`, which declares `runs: 'after-previous'`. */
  readonly runsAfterPrevious: boolean;
  /** The model set `wait_for_previous: true` in its input. */
  readonly waitForPrevious: boolean;
}

/** Up to `maxLength` generated calls with random edges (to earlier calls only). */
export const edgedOpsArb = (maxLength: number): fc.Arbitrary<EdgedOp[]> =>
  fc
    .array(
      fc.record({
        op: generatedOpArb(['ok', 'ok', 'ok', 'throw', 'report']),
        after: fc.option(fc.uniqueArray(fc.nat(), { maxLength: 3 }), { nil: undefined, freq: 2 }),
        runsAfterPrevious: fc.integer({ min: 0, max: 7 }).map((roll) => roll === 0),
        waitForPrevious: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0),
      }),
      { maxLength },
    )
    .map((raw) =>
      raw.map(({ op, after, runsAfterPrevious, waitForPrevious }, i) => {
        const earlier = i === 0 || after === undefined ? undefined : after.map((n) => n % i);
        return { ...op, after: earlier, runsAfterPrevious, waitForPrevious };
      }),
    );

/** Call `i` is `{ id: 'c<i>', name: 'op' | 'op_last', input: { i, wait_for_previous? }, after? }`. */
export const edgedCalls = (ops: readonly EdgedOp[]): ToolCall[] =>
  ops.map((op, i) => ({
    id: `c${i}`,
    name: op.runsAfterPrevious ? 'op_last' : 'op',
    input: op.waitForPrevious ? { i, wait_for_previous: true } : { i },
    ...(op.after === undefined ? {} : { after: op.after.map((n) => `c${n}`) }),
  }));

/** Plainly: every `[earlier, later, source]` an edge joins ('after' named first). */
export function referenceEdgePairs(ops: readonly EdgedOp[]): [number, number, string][] {
  const pairs: [number, number, string][] = [];
  ops.forEach((op, j) => {
    for (let i = 0; i < j; i++) {
      if (op.after?.includes(i)) pairs.push([i, j, 'after']);
      else if (op.runsAfterPrevious) pairs.push([i, j, 'after-previous']);
      else if (op.waitForPrevious) pairs.push([i, j, 'wait_for_previous']);
    }
  });
  return pairs;
}

/** One run of a tool, on a shared sequence, to order starts and ends exactly. */
export interface EdgedRun {
  readonly index: number;
  readonly startSeq: number;
  endSeq?: number;
}

/** Options of {@link edgedRegistry}. */
export interface EdgedRegistryOptions {
  readonly ops: readonly EdgedOp[];
  /** The runs, appended as they start. */
  readonly runs: EdgedRun[];
  /** The next number of the shared sequence. */
  readonly next: () => number;
}

/**
 * The tools `op` and `op_last` (`runs: 'after-previous'`) with the calls' generated
 * declarations: each sleeps its `ms` on the fake clock and ends as generated. Neither schema
 * has `wait_for_previous`: the Dispatcher must take it out (the input is strictly `{ i }`).
 */
export function edgedRegistry(options: EdgedRegistryOptions): ToolRegistry {
  const { ops, runs, next } = options;
  const make = (name: string, last: boolean) =>
    fnTool<{ i: number }>({
      name,
      description: 'a generated call',
      concurrencySafe: ({ i }) => ops[i]!.safe,
      access: ({ i }) =>
        ops[i]!.accesses.map(({ key, write }) => ({ key, mode: write ? 'write' : 'read' })),
      ...(last ? { runs: 'after-previous' as const } : {}),
      execute: async (input) => {
        if (Object.keys(input).join() !== 'i')
          throw new Error(`unexpected input ${JSON.stringify(input)}`);
        const run: EdgedRun = { index: input.i, startSeq: next() };
        runs.push(run);
        try {
          await abortableDelay(ops[input.i]!.ms, new AbortController().signal);
        } finally {
          run.endSeq = next();
        }
        if (ops[input.i]!.end === 'throw') throw new Error(`boom ${input.i}`);
        return { content: `r${input.i}`, isError: ops[input.i]!.end === 'report' };
      },
    });
  return new ToolRegistry().add(make('op', false)).add(make('op_last', true));
}
