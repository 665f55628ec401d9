// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import fc from 'fast-check';
import { it, vi } from 'vitest';
import { Dispatcher } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { referenceKeysOverlap } from './reference-keys-overlap.js';

useFakeClock();

/** What one generated call does: its declarations, how long it works, whether it hears its signal. */
interface Op {
  readonly safe: boolean;
  readonly key: 'a' | 'a/b' | 'b' | undefined;
  readonly write: boolean;
  readonly delay: number;
  /** Ignores its signal: runs its full `delay` whatever happens. */
  readonly stubborn: boolean;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  safe: fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
  key: fc.option(fc.constantFrom('a' as const, 'a/b' as const, 'b' as const), { nil: undefined }),
  write: fc.boolean(),
  delay: fc.integer({ min: 1, max: 80 }),
  stubborn: fc.boolean(),
});

const scenarioArb = fc.record({
  first: fc.array(opArb, { minLength: 1, maxLength: 6 }),
  second: fc.array(opArb, { minLength: 1, maxLength: 6 }),
  mode: fc.constantFrom('parallel' as const, 'sequential' as const, 'eager' as const),
  cap: fc.integer({ min: 1, max: 4 }),
  timeoutMs: fc.option(fc.integer({ min: 5, max: 60 }), { nil: undefined }),
  cancelFirstAt: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
});

/** A plain reference of the conflict rule, written from the declarations alone. */
const clash = (a: Op, b: Op): boolean =>
  !a.safe ||
  !b.safe ||
  (a.key !== undefined &&
    b.key !== undefined &&
    referenceKeysOverlap(a.key, b.key) &&
    (a.write || b.write));

interface Run {
  readonly id: string;
  readonly op: Op;
  readonly startedAt: number;
  /** When the tool really stopped working (sequence clock). */
  endedAt: number | undefined;
}

it('two batches of one dispatcher: conflicting tools never overlap, even when one outlives its attempt', async () => {
  await fc.assert(
    fc.asyncProperty(
      scenarioArb,
      async ({ first, second, mode, cap, timeoutMs, cancelFirstAt }) => {
        let clock = 0;
        const runs: Run[] = [];
        const tool = fnTool({
          name: 'op',
          description: 'works for a while',
          concurrencySafe: (input: unknown) => (input as Op).safe,
          access: (input: unknown) => {
            const { key, write } = input as Op;
            return key === undefined ? [] : [{ key, mode: write ? 'write' : 'read' }];
          },
          execute: (input: unknown, context) =>
            new Promise<string>((resolve, reject) => {
              const op = input as Op;
              const run: Run = {
                id: context.toolCallId,
                op,
                startedAt: clock++,
                endedAt: undefined,
              };
              runs.push(run);
              const timer = setTimeout(() => {
                run.endedAt = clock++;
                resolve('done');
              }, op.delay);
              if (op.stubborn) return;
              context.signal.addEventListener(
                'abort',
                () => {
                  clearTimeout(timer);
                  run.endedAt = clock++;
                  reject(context.signal.reason);
                },
                { once: true },
              );
            }),
        });
        const dispatcher = new Dispatcher({
          registry: new ToolRegistry().add(tool),
          mode,
          maxConcurrency: cap,
          settleTimeoutMs: Number.POSITIVE_INFINITY,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
        });
        const calls = (prefix: string, ops: readonly Op[]): ToolCall[] =>
          ops.map((op, i) => ({ id: `${prefix}${i}`, name: 'op', input: op }));
        const controller = new AbortController();
        if (cancelFirstAt !== undefined) setTimeout(() => controller.abort(), cancelFirstAt);
        const first$ = dispatcher.dispatch(calls('x', first), { signal: controller.signal });
        const firstDone = trackPromise(first$);
        // The next turn starts the moment the first one is answered (or cancelled).
        const nextTurn = (): Promise<unknown[]> => dispatcher.dispatch(calls('y', second));
        const secondDone = trackPromise(first$.then(nextTurn, nextTurn));
        await vi.runAllTimersAsync();

        assert.notEqual(firstDone.status, 'pending');
        assert.equal(secondDone.status, 'resolved');
        assert.equal(secondDone.value?.length, second.length);
        // Every tool really ended, and no two conflicting ones ever worked at the same time.
        assert.equal(
          runs.every((run) => run.endedAt !== undefined),
          true,
        );
        for (let i = 0; i < runs.length; i++) {
          for (let j = i + 1; j < runs.length; j++) {
            const a = runs[i]!;
            const b = runs[j]!;
            if (!clash(a.op, b.op)) continue;
            const overlap = a.startedAt < b.endedAt! && b.startedAt < a.endedAt!;
            assert.equal(overlap, false, `${a.id} and ${b.id} overlap`);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});
