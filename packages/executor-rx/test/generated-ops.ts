import {
  fnTool,
  type Tool,
  type ToolCall,
  type ToolContext,
  type ToolOutput,
} from '@toolwaves/core';
import fc from 'fast-check';
import { referenceKeysOverlap } from './reference-keys-overlap.js';

/** One generated call: what it declares, how long it runs, how it ends, when it arrives. */
export interface GeneratedOp {
  readonly safe: boolean;
  readonly accesses: readonly { readonly key: string; readonly write: boolean }[];
  readonly ms: number;
  /** `abort`: a pre hook aborts the batch at it (see {@link abortAtOp}). */
  readonly end: 'ok' | 'throw' | 'report' | 'abort';
  readonly arrivalGap: number;
}

/**
 * Generated calls for the property tests of whole batches, streams and turns: mostly
 * concurrency-safe, up to two accesses on overlapping `fs:` keys, 0–30 ms, ending as `ends`
 * says (repeat an entry to weight it).
 *
 * @example
 * ```ts
 * fc.array(generatedOpArb(['ok', 'ok', 'throw']), { maxLength: 10 });
 * ```
 */
export const generatedOpArb = (ends: readonly GeneratedOp['end'][]): fc.Arbitrary<GeneratedOp> =>
  fc.record({
    safe: fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
    accesses: fc.array(
      fc.record({
        key: fc.constantFrom('fs:/a', 'fs:/a/b', 'fs:/a/c', 'fs:/d'),
        write: fc.boolean(),
      }),
      { maxLength: 2 },
    ),
    ms: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(0)),
    end: fc.constantFrom(...ends),
    arrivalGap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 15 })),
  });

/** The reference: of two calls, the later must wait for the earlier (rules 4 and 5, plainly). */
export const mustOrder = (a: GeneratedOp, b: GeneratedOp): boolean =>
  !a.safe ||
  !b.safe ||
  a.accesses.some((x) =>
    b.accesses.some((y) => (x.write || y.write) && referenceKeysOverlap(x.key, y.key)),
  );

/** The calls of the generated ops: call `i` is `{ id: 'c<i>', name: 'op', input: { i } }`. */
export const opCalls = (ops: readonly GeneratedOp[]): ToolCall[] =>
  ops.map((_, i) => ({ id: `c${i}`, name: 'op', input: { i } }));

/** When each call arrives: the gaps added up for a stream, all at 0 for a whole batch. */
export function arrivalTimes(ops: readonly GeneratedOp[], streamed: boolean): number[] {
  const arrivalMs: number[] = [];
  let at = 0;
  for (const generated of ops) {
    at += streamed ? generated.arrivalGap : 0;
    arrivalMs.push(at);
  }
  return arrivalMs;
}

/** The tool `op` with the generated declarations of call `input.i`, running `execute`. */
export const opTool = (
  ops: readonly GeneratedOp[],
  execute: (
    input: { i: number },
    context: ToolContext,
  ) => Promise<ToolOutput | string> | ToolOutput | string,
): Tool<{ i: number }> =>
  fnTool<{ i: number }>({
    name: 'op',
    description: 'a generated call',
    concurrencySafe: ({ i }) => ops[i]!.safe,
    access: ({ i }) =>
      ops[i]!.accesses.map(({ key, write }) => ({ key, mode: write ? 'write' : 'read' })),
    execute,
  });

/** A pre hook that aborts the batch at a call generated to end with `abort`. */
export const abortAtOp =
  (ops: readonly GeneratedOp[]) =>
  ({ input }: { input: unknown }) =>
    ops[(input as { i: number }).i]!.end === 'abort'
      ? { action: 'abort' as const, reason: 'stop here' }
      : undefined;
