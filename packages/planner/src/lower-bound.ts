import { AccessIndex, AccessRecord, type KeyNode } from './access-index.js';
import { resolveArrivalTimes } from './arrival-times.js';
import { assertNodes } from './assert-nodes.js';
import { DependencyTracker } from './dependencies.js';
import { estimateOf } from './estimate-of.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import type { PlanNode, PlanOptions } from './types.js';
import { checkPlannerOptions } from './unknown-options.js';

/** Options of {@link lowerBound}. */
export interface LowerBoundOptions extends PlanOptions {
  /** When each call arrives, in ms (one entry per call, from 0 up); default: all at 0. */
  readonly arrivalMs?: readonly number[];
  /**
   * Bound only the schedules that also keep rule 5 — nothing crosses a call that is not
   * concurrency-safe: eager schedules ({@link simulateEager}, the executor's eager and stream
   * modes) and the plans of planners with `keepsOrder`. Default `false`: every schedule that
   * keeps rules 1–4, which includes greedy plans whose calls cross unsafe ones.
   */
  readonly keepsOrder?: boolean;
}

/**
 * A duration no schedule that keeps the rules can beat, for judging planners and schedulers:
 * the end of any schedule in which no two conflicting calls overlap and conflicting
 * concurrency-safe calls keep model order (rules 3–4), a call that is not concurrency-safe runs
 * alone, at most `maxConcurrency` (default 8) calls run at once, and no call starts before it
 * arrives (`arrivalMs`). So it is at most the {@link makespan} of any valid plan (plus the last
 * arrival, when a plan waits for the whole batch) and at most the end of a
 * {@link simulateEager} schedule. With U the summed estimates of the calls that are not
 * concurrency-safe, it is the largest of:
 * - release-aware chains: a call ends no earlier than its arrival plus its estimate, nor than
 *   the end of the latest-ending earlier safe call it {@link conflicts} with plus its estimate
 *   (for a call that is not concurrency-safe: its arrival plus its estimate);
 * - the first arrival + U + the longest chain of conflicting safe calls (estimates summed);
 * - for each arrival time t: t + the estimates of the unsafe calls arriving at t or later +
 *   the estimates of the safe ones divided by `maxConcurrency`.
 *
 * With `keepsOrder: true` it bounds only schedules that also keep rule 5, and adds a stronger
 * term: the calls between two unsafe calls form a segment that starts after the first ends and
 * ends before the second starts; each segment ends no earlier than its release-aware chains
 * (over {@link dependencies}) and its work after each arrival divided by `maxConcurrency`.
 * With at least as many slots as calls this is exactly the end of {@link simulateEager}.
 *
 * Estimates default to {@link DEFAULT_ESTIMATE_MS}. One pass with an index of accesses by key
 * (no pair of calls is compared), plus a sort of the arrival times.
 *
 * @throws {PlannerError} `invalid_options` / `invalid_nodes` for bad input.
 * @example
 * lowerBound(nodes, { maxConcurrency: 8 }) <= makespan(nodes, plan, { maxConcurrency: 8 }); // true for a valid plan
 * lowerBound(nodes, { arrivalMs, keepsOrder: true }) <= Math.max(...simulateEager(nodes, { arrivalMs }).endMs); // true
 * @see makespan
 * @see simulateEager
 */
export function lowerBound(nodes: readonly PlanNode[], options: LowerBoundOptions = {}): number {
  checkPlannerOptions({
    subject: 'lowerBound',
    options,
    known: ['maxConcurrency', 'arrivalMs', 'keepsOrder'],
  });
  const slots = resolveMaxConcurrency(options);
  assertNodes(nodes, { estimates: true });
  const arrivals = resolveArrivalTimes(options.arrivalMs, nodes.length);
  const bound = anyScheduleBound(nodes, arrivals, slots);
  return options.keepsOrder === true
    ? Math.max(bound, orderedScheduleBound(nodes, arrivals, slots))
    : bound;
}

/** The bound for schedules that keep rules 1–4 (see {@link lowerBound}). */
function anyScheduleBound(
  nodes: readonly PlanNode[],
  arrivals: readonly number[],
  slots: number,
): number {
  const index = new AccessIndex();
  const chainRecord = new AccessRecord();
  // The same index cannot hold two values per access: release-aware ends get their own.
  const releasedIndex = new AccessIndex();
  const releasedRecord = new AccessRecord();
  const keyNodes: KeyNode[] = [];
  const releasedNodes: KeyNode[] = [];
  const writes: boolean[] = [];
  let unsafeWork = 0;
  let longestChain = 0;
  let latestEnd = 0;
  let firstArrival = Number.POSITIVE_INFINITY;
  for (let call = 0; call < nodes.length; call++) {
    const node = nodes[call]!;
    const estimate = estimateOf(node);
    const arrival = arrivals[call]!;
    if (arrival < firstArrival) firstArrival = arrival;
    if (!node.parallelizable) {
      unsafeWork += estimate;
      latestEnd = Math.max(latestEnd, arrival + estimate);
      continue;
    }
    keyNodes.length = 0;
    releasedNodes.length = 0;
    writes.length = 0;
    chainRecord.clear();
    releasedRecord.clear();
    const { resourceKey, access } = node;
    if (resourceKey !== undefined) {
      keyNodes.push(index.keyNode(resourceKey));
      releasedNodes.push(releasedIndex.keyNode(resourceKey));
      writes.push(true);
    }
    for (const entry of access ?? []) {
      keyNodes.push(index.keyNode(entry.key));
      releasedNodes.push(releasedIndex.keyNode(entry.key));
      writes.push(entry.mode === 'write');
    }
    for (let a = 0; a < keyNodes.length; a++) {
      index.latest(keyNodes[a]!, writes[a]!, chainRecord);
      releasedIndex.latest(releasedNodes[a]!, writes[a]!, releasedRecord);
    }
    const chain = estimate + Math.max(0, chainRecord.value);
    const end = Math.max(arrival, releasedRecord.value) + estimate;
    if (chain > longestChain) longestChain = chain;
    if (end > latestEnd) latestEnd = end;
    for (let a = 0; a < keyNodes.length; a++) {
      index.record(keyNodes[a]!, writes[a]!, chain, call, a);
      releasedIndex.record(releasedNodes[a]!, writes[a]!, end, call, a);
    }
  }
  if (nodes.length === 0) return 0;
  const calls = nodes.map((_, call) => call);
  return Math.max(
    latestEnd,
    firstArrival + unsafeWork + longestChain,
    workAfterArrivals(nodes, calls, arrivals, slots, 0),
  );
}

/** The bound for schedules that also keep rule 5: segment by segment between unsafe calls. */
function orderedScheduleBound(
  nodes: readonly PlanNode[],
  arrivals: readonly number[],
  slots: number,
): number {
  const tracker = new DependencyTracker();
  const ends: number[] = [];
  const segment: number[] = [];
  let segmentStart = 0; // no call of the segment starts earlier: the previous unsafe call ended
  let segmentEnd = 0;
  for (let call = 0; call < nodes.length; call++) {
    const node = nodes[call]!;
    const estimate = estimateOf(node);
    let start = Math.max(arrivals[call]!, segmentStart);
    for (const earlier of tracker.add(node)) start = Math.max(start, ends[earlier]!);
    if (node.parallelizable) {
      ends.push(start + estimate);
      segment.push(call);
      segmentEnd = Math.max(segmentEnd, start + estimate);
      continue;
    }
    // Every earlier call has ended before this one starts; every later one starts after it.
    start = Math.max(
      start,
      segmentEnd,
      workAfterArrivals(nodes, segment, arrivals, slots, segmentStart),
    );
    ends.push(start + estimate);
    segmentStart = start + estimate;
    segmentEnd = segmentStart;
    segment.length = 0;
  }
  return Math.max(segmentEnd, workAfterArrivals(nodes, segment, arrivals, slots, segmentStart));
}

/**
 * For the given calls, none of which starts before `from`: the largest over arrival times t of
 * max(t, from) + the work arriving at t or later, the safe calls' work shared by `slots`.
 */
function workAfterArrivals(
  nodes: readonly PlanNode[],
  calls: readonly number[],
  arrivals: readonly number[],
  slots: number,
  from: number,
): number {
  const latestFirst = [...calls].sort((a, b) => arrivals[b]! - arrivals[a]!);
  // Summed apart and divided once: thirds added one by one (8 + 1/3 + 1/3 + 1/3 gives
  // 9.000000000000002) would put the bound above a plan that meets it exactly.
  let unsafeWork = 0;
  let safeWork = 0;
  let best = from;
  for (const call of latestFirst) {
    const node = nodes[call]!;
    if (node.parallelizable) safeWork += estimateOf(node);
    else unsafeWork += estimateOf(node);
    best = Math.max(best, Math.max(from, arrivals[call]!) + unsafeWork + safeWork / slots);
  }
  return best;
}
