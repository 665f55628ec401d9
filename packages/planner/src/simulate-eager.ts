import { resolveArrivalTimes } from './arrival-times.js';
import { assertNodes } from './assert-nodes.js';
import { BinaryHeap } from './binary-heap.js';
import { dependencies } from './dependencies.js';
import { EagerQueue } from './eager-queue.js';
import { estimateOf } from './estimate-of.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import type { EagerPriority, PlanNode, PlanOptions, Schedule } from './types.js';
import { checkPlannerOptions } from './unknown-options.js';

/** Options of {@link simulateEager}. */
export interface SimulateEagerOptions extends PlanOptions {
  /** When each call arrives, in ms (one entry per call, from 0 up); default: all at 0. */
  readonly arrivalMs?: readonly number[];
  /** Which ready call takes a free slot first; default `'model-order'`. */
  readonly priority?: EagerPriority;
}

/**
 * The schedule eager mode makes, simulated: each call starts the moment (a) it has arrived,
 * (b) every call it waits for ({@link dependencies}: rule 4 for conflicting concurrency-safe
 * calls, rule 5 both ways for calls that are not) has ended, and (c) fewer than
 * `maxConcurrency` (default 8) calls run. Among ready calls the earliest in model order starts
 * first, or with `priority: 'longest-first'` the one with the largest estimate (ties by model
 * order). Event-driven list scheduling, work-conserving: a ready call never waits while a slot
 * is free. Durations are the estimates ({@link estimateOf}); `endMs[i] = startMs[i] + estimate`.
 *
 * Cost: O(n log n) plus {@link dependencies}. The ready calls are kept by {@link EagerQueue},
 * the same queue the Dispatcher's eager scheduler drives.
 *
 * @throws {PlannerError} `invalid_options` for a bad `maxConcurrency`, `arrivalMs` or
 * `priority`; `invalid_nodes` for a malformed node or estimate.
 * @example
 * const nodes = [
 *   { index: 0, parallelizable: true, resourceKey: 'a', estimateMs: 30 },
 *   { index: 1, parallelizable: true, resourceKey: 'b', estimateMs: 10 },
 *   { index: 2, parallelizable: true, resourceKey: 'b', estimateMs: 10 },
 * ];
 * simulateEager(nodes); // { startMs: [0, 0, 10], endMs: [30, 10, 20] }: call 2 does not wait for call 0
 * @see verifySchedule
 * @see lowerBound
 */
export function simulateEager(
  nodes: readonly PlanNode[],
  options: SimulateEagerOptions = {},
): Schedule {
  checkPlannerOptions({
    subject: 'simulateEager',
    options,
    known: ['maxConcurrency', 'arrivalMs', 'priority'],
  });
  const slots = resolveMaxConcurrency(options);
  assertNodes(nodes, { estimates: true });
  const arrivals = resolveArrivalTimes(options.arrivalMs, nodes.length);
  const queue = new EagerQueue({ priority: options.priority });
  const count = nodes.length;
  const durations = nodes.map(estimateOf);
  const waits = dependencies(nodes);
  const byArrival = nodes.map((_, call) => call);
  byArrival.sort((a, b) => arrivals[a]! - arrivals[b]! || a - b);

  const startMs = new Array<number>(count).fill(0);
  const endMs = new Array<number>(count).fill(0);
  const running = new BinaryHeap((a, b) => endMs[a]! - endMs[b]! || a - b);
  let now = 0;
  let nextArrival = 0;
  let ended = 0;
  while (ended < count) {
    while (nextArrival < count && arrivals[byArrival[nextArrival]!]! <= now) {
      const call = byArrival[nextArrival++]!;
      queue.add({ index: call, dependencies: waits[call]!, estimateMs: durations[call]! });
    }
    while (running.size < slots && queue.readyCount > 0) {
      const call = queue.take()!;
      startMs[call] = now;
      endMs[call] = now + durations[call]!;
      running.push(call);
    }
    const first = running.peek();
    const nextEnd = first === undefined ? Number.POSITIVE_INFINITY : endMs[first]!;
    const arrival =
      nextArrival < count ? arrivals[byArrival[nextArrival]!]! : Number.POSITIVE_INFINITY;
    now = Math.max(now, Math.min(nextEnd, arrival));
    while (running.size > 0 && endMs[running.peek()!]! <= now) {
      const call = running.pop()!;
      ended++;
      queue.end(call);
    }
  }
  return { startMs, endMs };
}
