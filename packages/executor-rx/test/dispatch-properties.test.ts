// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { type ToolCall, ToolRegistry } from '@toolwaves/core';
import { MockTool, type MockToolCall } from '@toolwaves/core/testing';
import { conflicts } from '@toolwaves/planner';
import fc from 'fast-check';
import { it, vi } from 'vitest';
import { type DispatchError, type DispatchEvent, Dispatcher } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { ends, record, starts } from './recording.js';
import { retryOnce } from './recovery-strategies.js';

useFakeClock();

/** What one generated call asks the `op` tool to do. */
interface Op {
  readonly safe: boolean;
  readonly key: string | undefined;
  readonly write: boolean;
  readonly delay: number;
  readonly fail: 'none' | 'throw' | 'report' | 'first-throw';
}

const opArb: fc.Arbitrary<Op> = fc.record({
  safe: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
  key: fc.option(fc.constantFrom('a', 'a/b', 'b', 'c'), { nil: undefined }),
  write: fc.boolean(),
  delay: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(0)),
  fail: fc.constantFrom('none', 'none', 'throw', 'report', 'first-throw'),
});

const scenarioArb = fc.record({
  ops: fc.array(opArb, { minLength: 0, maxLength: 12 }),
  cap: fc.integer({ min: 1, max: 6 }),
  mode: fc.constantFrom('parallel', 'parallel', 'parallel', 'sequential') as fc.Arbitrary<
    'parallel' | 'sequential'
  >,
  retryDelay: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
  cancelAt: fc.option(fc.integer({ min: 0, max: 120 }), { freq: 3, nil: undefined }),
});

const overlap = (a: MockToolCall, b: MockToolCall): boolean =>
  a.startedAt < (b.endedAt ?? Number.POSITIVE_INFINITY) &&
  b.startedAt < (a.endedAt ?? Number.POSITIVE_INFINITY);

/** The most intervals open at once (sequence-number clock: every reading is distinct). */
const maxLive = (records: readonly MockToolCall[]): number => {
  const points = records.flatMap((r) => [
    [r.startedAt, 1],
    [r.endedAt ?? Number.POSITIVE_INFINITY, -1],
  ]);
  points.sort((x, y) => x[0]! - y[0]!);
  let live = 0;
  let most = 0;
  for (const [, delta] of points) {
    live += delta!;
    most = Math.max(most, live);
  }
  return most;
};

it('answers every call once and in order, respects the cap and the conflicts, pairs events', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ ops, cap, mode, retryDelay, cancelAt }) => {
      let clock = 0;
      const op = (input: unknown) => ops[(input as { i: number }).i]!;
      const tool = new MockTool({
        name: 'op',
        now: () => clock++,
        concurrencySafe: (input) => op(input).safe,
        access: (input) => {
          const { key, write } = op(input);
          return key === undefined ? [] : [{ key, mode: write ? 'write' : 'read' }];
        },
        delayMs: (input) => op(input).delay,
        error: (input, attempt) => {
          const { fail } = op(input);
          return fail === 'throw' || (fail === 'first-throw' && attempt === 1)
            ? new Error(`boom ${(input as { i: number }).i}`)
            : undefined;
        },
        result: (input) => ({
          content: `r${(input as { i: number }).i}`,
          isError: op(input).fail === 'report',
        }),
      });
      const registry = new ToolRegistry().add(tool);
      const dispatcher = new Dispatcher({
        registry,
        mode,
        maxConcurrency: cap,
        ...(retryDelay === undefined ? {} : { recovery: { strategy: retryOnce(retryDelay) } }),
      });
      const calls: ToolCall[] = ops.map((_, i) => ({ id: `c${i}`, name: 'op', input: { i } }));
      const controller = new AbortController();
      if (cancelAt !== undefined) setTimeout(() => controller.abort(), cancelAt);
      const run = record(dispatcher.run(calls, { signal: controller.signal }));
      await vi.runAllTimersAsync();
      assert.notEqual(run.status, 'running');
      const events: DispatchEvent[] = run.events;

      // Events pair up: one call-end per call-start (same id and attempt), after it.
      const opened = new Map<string, number>();
      events.forEach((event, position) => {
        if (event.type === 'call-start') {
          const key = `${event.toolCallId}#${event.attempt}`;
          assert.equal(opened.has(key), false);
          opened.set(key, position);
        }
        if (event.type === 'call-end') {
          const key = `${event.toolCallId}#${event.attempt}`;
          assert.ok(
            opened.get(key)! < position,
            `expected opened.get(key) < position (${position})`,
          );
          opened.delete(key);
        }
      });
      assert.deepEqual([...opened.keys()], []);
      assert.equal(ends(events).length, starts(events).length);
      assert.equal(starts(events).length, tool.calls.length);

      // Every tool run ended (in flight ones were aborted, never left running).
      assert.equal(
        tool.calls.every((c) => c.endedAt !== undefined),
        true,
      );

      const start = events[0];
      if (start?.type !== 'batch-start') throw new Error('expected batch-start first');
      if (start.plan === undefined) throw new Error('expected a plan in waves modes');
      const waves = start.plan.waves.map((wave) => wave.calls);
      assert.equal(start.maxConcurrency, Math.max(1, Math.min(cap, ops.length)));

      // Never more live calls than the cap; a wave of long calls fills min(cap, size) slots.
      assert.ok(maxLive(tool.calls) <= (mode === 'sequential' ? 1 : cap));
      const byCall = (i: number) => tool.calls.filter((c) => c.toolCallId === `c${i}`);
      for (const wave of waves) {
        const records = wave.flatMap(byCall);
        assert.ok(maxLive(records) <= cap, `expected maxLive(records) <= cap (${cap})`);
        const started = wave.filter((i) => byCall(i).length > 0);
        if (run.status === 'complete' && wave.every((i) => ops[i]!.delay > 0)) {
          assert.equal(maxLive(wave.map((i) => byCall(i)[0]!)), Math.min(cap, wave.length));
          assert.deepEqual(started, wave);
        }
      }

      // Conflicting calls never overlap; a call that is not concurrency-safe overlaps nothing.
      const nodes = registry.toPlanNodes(calls);
      for (let i = 0; i < ops.length; i++) {
        for (let j = i + 1; j < ops.length; j++) {
          const clash = conflicts(nodes[i]!, nodes[j]!);
          if (!ops[i]!.safe || !ops[j]!.safe) assert.equal(clash, true);
          if (!clash) continue;
          for (const a of byCall(i)) {
            for (const b of byCall(j)) assert.equal(overlap(a, b), false);
          }
        }
      }

      if (run.status === 'error') {
        // A hard error: no batch-end, no results; nothing starts after it.
        assert.equal((run.error as DispatchError).code, 'cancelled');
        assert.equal(
          events.some((e) => e.type === 'batch-end'),
          false,
        );
        const before = tool.calls.length;
        await vi.advanceTimersByTimeAsync(1_000);
        assert.equal(tool.calls.length, before);
        return;
      }

      // Answered exactly once, in order, with its own answer.
      const end = events.at(-1);
      if (end?.type !== 'batch-end') throw new Error('expected batch-end last');
      assert.deepEqual(
        end.results.map((r) => r.toolCallId),
        calls.map((c) => c.id),
      );
      end.results.forEach((result, i) => {
        const { fail } = ops[i]!;
        const retried = retryDelay !== undefined && fail === 'first-throw';
        const threw = fail === 'throw' || (fail === 'first-throw' && !retried);
        const expected = threw ? `Tool \`op\` failed: boom ${i}` : `r${i}`;
        const gaveUp = retryDelay !== undefined && fail === 'throw';
        assert.equal(
          result.content,
          gaveUp ? `Recovery gave up on \`op\` after 2 attempts: ${expected}` : expected,
        );
        assert.equal(result.isError, threw || fail === 'report');
        const finals = ends(events).filter(
          (e) => e.toolCallId === `c${i}` && (e.outcome === 'ok' || e.outcome === 'error'),
        );
        assert.equal(finals.length, 1);
        const attempts = retryDelay !== undefined && fail !== 'none' && fail !== 'report' ? 2 : 1;
        assert.equal(byCall(i).length, attempts);
      });
    }),
    { numRuns: 400 },
  );
});
