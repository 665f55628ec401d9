// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import type { ToolCall, ToolResult } from '@toolwaves/core';
import fc from 'fast-check';
import { beforeEach, expect, it, vi } from 'vitest';
import { type CallSkippedEvent, Dispatcher } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { record } from './recording.js';
import { message, type Work, type WorkRun, work, workRegistry } from './timed-work.js';

useFakeClock();

let runs: Map<string, WorkRun>;
beforeEach(() => {
  runs = new Map();
});

/** What a generated call declares: only `read` and `plain` (safe, declares nothing) are reads. */
type Kind = 'read' | 'plain' | 'write' | 'keyed' | 'unsafe';
const READS: readonly Kind[] = ['read', 'plain'];

const callArb = fc.record({
  kind: fc.constantFrom<Kind>('read', 'plain', 'write', 'keyed', 'unsafe'),
  key: fc.constantFrom('k0', 'k1', 'k2'),
  gap: fc.integer({ min: 0, max: 20 }),
  ms: fc.integer({ min: 1, max: 30 }),
});

const scenarioArb = fc.record({
  calls: fc.array(callArb, { minLength: 1, maxLength: 8 }),
  /** How the message ends, that many ms after its last call arrived. */
  end: fc.constantFrom<'complete' | 'error' | 'abort'>('complete', 'error', 'abort'),
  after: fc.integer({ min: 0, max: 40 }),
  mode: fc.constantFrom<'eager' | 'parallel' | 'sequential'>('eager', 'parallel', 'sequential'),
  cap: fc.integer({ min: 1, max: 4 }),
});

function inputOf(kind: Kind, key: string, ms: number): Work {
  if (kind === 'read') return { ms, read: key };
  if (kind === 'write') return { ms, write: key };
  if (kind === 'keyed') return { ms, key };
  if (kind === 'unsafe') return { ms, unsafe: true };
  return { ms };
}

it("'read-only' starts no call but a read before its message ends, none from a failed or cancelled message, and reads as they arrive", async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ calls: generated, end, after, mode, cap }) => {
      runs = new Map();
      const start = vi.getMockedSystemTime()?.getTime() ?? 0;
      const calls: ToolCall[] = generated.map((g, i) =>
        work(`c${i}`, inputOf(g.kind, g.key, g.ms)),
      );
      const arrivalMs: number[] = [];
      let at = 0;
      for (const g of generated) {
        at += g.gap;
        arrivalMs.push(at);
      }
      const endMs = at + after;
      const dispatcher = new Dispatcher({
        registry: workRegistry(runs),
        mode,
        maxConcurrency: cap,
      });
      const controller = new AbortController();
      if (end === 'abort') setTimeout(() => controller.abort(), endMs);
      const source = message({
        calls,
        arrivalMs,
        // a cancelled dispatch's source would have gone on: it ends normally, later
        endMs: end === 'abort' ? endMs + 100 : endMs,
        end: end === 'error' ? 'error' : 'complete',
      });
      const run = record(dispatcher.runStream(source, { signal: controller.signal }));
      await vi.runAllTimersAsync();
      const isRead = (i: number): boolean => READS.includes(generated[i]!.kind);

      for (let i = 0; i < calls.length; i++) {
        const toolRun = runs.get(`c${i}`);
        if (toolRun === undefined || isRead(i)) continue;
        // A call that is not a read started only after its message was complete.
        assert.equal(end, 'complete');
        assert.ok(
          toolRun.start - start >= endMs,
          `expected toolRun.start - start >= endMs (${endMs})`,
        );
      }
      if (end === 'complete') {
        assert.equal(run.status, 'complete');
        assert.equal(runs.size, calls.length);
      } else {
        assert.equal(run.status, 'error');
        // Every call that is not a read arrived before the end and was answered, never run.
        const held = run.events.filter(
          (event): event is CallSkippedEvent =>
            event.type === 'call-skipped' && event.reason === 'message-incomplete',
        );
        const heldIds = new Set(held.map((event) => event.toolCallId));
        for (let i = 0; i < calls.length; i++) {
          if (!isRead(i) && arrivalMs[i]! < endMs) assert.equal(heldIds.has(`c${i}`), true);
          if (heldIds.has(`c${i}`)) assert.equal(runs.has(`c${i}`), false);
        }
        for (const event of held) assert.equal(event.result.isError, true);
        // A read still running when the message failed was cancelled then.
        for (const toolRun of runs.values()) {
          if (toolRun.end! - start > endMs) throw new Error('a read outlived its failed message');
        }
      }

      // Reads start as they arrive: a read that no earlier call holds up (none is unsafe, none
      // writes its key, and, in sequential mode, none comes before it) starts on arrival when
      // the cap leaves room for every call.
      if (mode === 'sequential' || cap < calls.length) return;
      for (let i = 0; i < calls.length; i++) {
        if (!isRead(i) || arrivalMs[i]! >= endMs) continue;
        const g = generated[i]!;
        const heldUp = generated
          .slice(0, i)
          .some(
            (earlier) =>
              earlier.kind === 'unsafe' ||
              (g.kind === 'read' &&
                (earlier.kind === 'write' || earlier.kind === 'keyed') &&
                earlier.key === g.key),
          );
        if (heldUp) continue;
        assert.equal(runs.get(`c${i}`)?.start, start + arrivalMs[i]!);
      }
    }),
    { numRuns: 400 },
  );
});

it("turns: 'read-only' starts no call but a read before close(), none from a cancelled turn, and answers the held ones", async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ calls: generated, end, after, mode, cap }) => {
      runs = new Map();
      const start = vi.getMockedSystemTime()?.getTime() ?? 0;
      const dispatcher = new Dispatcher({
        registry: workRegistry(runs),
        mode,
        maxConcurrency: cap,
      });
      const controller = new AbortController();
      const turn = dispatcher.openTurn({ signal: controller.signal });
      const answers: Promise<ToolResult | unknown>[] = [];
      let at = 0;
      generated.forEach((g, i) => {
        at += g.gap;
        setTimeout(() => {
          answers[i] = turn.run(work(`c${i}`, inputOf(g.kind, g.key, g.ms))).catch((e) => e);
        }, at);
      });
      const endMs = at + after;
      // a turn has no source to fail: its message ends with close(), or the caller cancels
      const closed = new Promise<unknown>((resolve) =>
        setTimeout(() => {
          if (end === 'complete') resolve(turn.close());
          else resolve(controller.abort());
        }, endMs),
      );
      await vi.runAllTimersAsync();
      await closed;
      const settled = await Promise.all(answers);
      const isRead = (i: number): boolean => READS.includes(generated[i]!.kind);
      for (let i = 0; i < generated.length; i++) {
        const toolRun = runs.get(`c${i}`);
        if (isRead(i)) continue;
        if (end === 'complete') {
          assert.ok((toolRun?.start ?? Number.NaN) >= start + endMs);
          continue;
        }
        // cancelled: never run, and answered with the soft error (not rejected)
        assert.equal(toolRun, undefined);
        if (arrivalMs(generated, i) < endMs) {
          expect(settled[i]).toMatchObject({ toolCallId: `c${i}`, isError: true });
          expect((settled[i] as ToolResult).content).toMatch(/was not started/);
        }
      }
    }),
    { numRuns: 300 },
  );
});

/** When generated call `i` arrives. */
function arrivalMs(generated: readonly { readonly gap: number }[], i: number): number {
  return generated.slice(0, i + 1).reduce((sum, g) => sum + g.gap, 0);
}
