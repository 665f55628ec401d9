import { estimateOf, type PlanNode, type Schedule } from '@toolwaves/planner';
import { mustWait } from './dependency-reference.js';
import type { EagerScenario } from './eager-arbitraries.js';

// A plainly written eager simulator: at each moment, scan every call. O(n³) on purpose.

/** Whether `a` takes a free slot before `b`. */
const first = (nodes: readonly PlanNode[], scenario: EagerScenario, a: number, b: number) =>
  scenario.priority === 'longest-first'
    ? estimateOf(nodes[b]!) - estimateOf(nodes[a]!) || a - b
    : a - b;

// Whether call i must wait for call j, per scenario, decided once: the simulator asks at every
// moment, for every pair.
const waitsOf = new WeakMap<EagerScenario, boolean[][]>();
const waits = (scenario: EagerScenario, j: number, i: number): boolean => {
  let table = waitsOf.get(scenario);
  if (table === undefined) {
    const { nodes } = scenario;
    table = nodes.map((_, later) => nodes.map((__, earlier) => mustWait(nodes, earlier, later)));
    waitsOf.set(scenario, table);
  }
  return table[i]![j]!;
};

/**
 * Whether call `i` may start at `now`: it arrived, has not started, and every earlier call the
 * rules make it wait for has ended by `now`.
 */
export function isReady(scenario: EagerScenario, schedule: Schedule, i: number, now: number) {
  const { arrivalMs } = scenario;
  if (arrivalMs[i]! > now) return false;
  for (let j = 0; j < i; j++) {
    if (waits(scenario, j, i) && !(schedule.startMs[j]! <= now && schedule.endMs[j]! <= now)) {
      return false;
    }
  }
  return true;
}

/**
 * The eager schedule, by the definition: at each moment, the ready calls take the free slots in
 * priority order; then time moves to the next end or arrival.
 */
export function referenceEager(scenario: EagerScenario): Schedule {
  const { nodes, arrivalMs, maxConcurrency } = scenario;
  const startMs = nodes.map(() => Number.POSITIVE_INFINITY);
  const endMs = nodes.map(() => Number.POSITIVE_INFINITY);
  const schedule = { startMs, endMs };
  let now = 0;
  while (startMs.some((start) => start === Number.POSITIVE_INFINITY)) {
    const running = nodes.filter((_, i) => startMs[i]! <= now && endMs[i]! > now).length;
    const ready = nodes
      .map((_, i) => i)
      .filter((i) => startMs[i] === Number.POSITIVE_INFINITY && isReady(scenario, schedule, i, now))
      .sort((a, b) => first(nodes, scenario, a, b));
    const free = maxConcurrency - running;
    if (free > 0 && ready.length > 0) {
      // Every ready call that fits starts now; a call of 0 ms ends at once and frees its slot
      // for the next round at the same moment.
      for (const chosen of ready.slice(0, free)) {
        startMs[chosen] = now;
        endMs[chosen] = now + estimateOf(nodes[chosen]!);
      }
      continue;
    }
    const later = [
      ...endMs.filter((end) => end > now && end !== Number.POSITIVE_INFINITY),
      ...arrivalMs.filter((arrival) => arrival > now),
    ];
    now = Math.min(...later);
  }
  return schedule;
}

/** Every rule, plainly: waits kept, the cap at each start, no start before arrival. */
export function isValidSchedule(scenario: EagerScenario, schedule: Schedule): boolean {
  const { nodes, arrivalMs, maxConcurrency } = scenario;
  const { startMs, endMs } = schedule;
  for (let i = 0; i < nodes.length; i++) {
    if (startMs[i]! < arrivalMs[i]!) return false;
    for (let j = 0; j < i; j++) if (mustWait(nodes, j, i) && endMs[j]! > startMs[i]!) return false;
    const runningThen = nodes.filter(
      (_, k) => endMs[k]! > startMs[k]! && startMs[k]! <= startMs[i]! && startMs[i]! < endMs[k]!,
    ).length;
    if (runningThen > maxConcurrency) return false;
  }
  return true;
}

/** The most calls of positive duration running at one moment. */
export function peakConcurrency(schedule: Schedule): number {
  const { startMs, endMs } = schedule;
  let peak = 0;
  for (let i = 0; i < startMs.length; i++) {
    let count = 0;
    for (let k = 0; k < startMs.length; k++) {
      if (endMs[k]! > startMs[k]! && startMs[k]! <= startMs[i]! && startMs[i]! < endMs[k]!) count++;
    }
    peak = Math.max(peak, count);
  }
  return peak;
}
