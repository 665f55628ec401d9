import { resolveArrivalTimes } from './arrival-times.js';
import { assertNodes } from './assert-nodes.js';
import { conflicts } from './conflicts.js';
import { followsByEdge } from './edges-of.js';
import { estimateOf } from './estimate-of.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import type { PlanNode, PlanOptions, Schedule } from './types.js';
import { checkPlannerOptions } from './unknown-options.js';

/** Relative slack for `exactDurations`: sums of fractional times round differently. */
const ROUNDING = 1e-9;

/** Options of {@link verifySchedule}. */
export interface VerifyScheduleOptions extends PlanOptions {
  /** When each call arrived, in ms (one entry per call); default: all at 0. */
  readonly arrivalMs?: readonly number[];
  /**
   * Also check that each call ran exactly as long as its estimate ({@link estimateOf}), as in
   * a schedule from {@link simulateEager}, up to floating-point rounding (a call from 125.1 to
   * 125.1 + 0.2 ran for 0.20000000000000284 in doubles). Default `false`: a schedule measured from real
   * runs has its own durations.
   */
  readonly exactDurations?: boolean;
}

/**
 * Checks a schedule (when each call ran) against the rules and returns every violation found,
 * in words; `[]` means the schedule keeps them. Calls are numbered from 0 (model order); a call
 * runs from its start to its end, and one that takes 0 ms overlaps nothing.
 *
 * - shape: one finite start and end per call, no end before its start;
 * - two conflicting concurrency-safe calls ({@link conflicts}) do not overlap (rule 3), and the
 *   earlier in model order ends before the later starts (rule 4);
 * - a call that follows another by an ordering edge ({@link followsByEdge}) starts after it ends;
 * - a call that is not concurrency-safe overlaps no other call (rule 2), every earlier call ends
 *   before it starts and every later call starts after it ends: nothing crosses it (rule 5);
 * - at no moment do more than `maxConcurrency` (default 8) calls run;
 * - no call starts before it arrives (`arrivalMs`);
 * - with `exactDurations`, each call runs for its estimate.
 *
 * Every pair of calls is compared (O(n²)): this is a checker, written to be plainly right.
 *
 * @throws {PlannerError} `invalid_nodes` for malformed nodes, `invalid_options` for a bad
 * `maxConcurrency` or `arrivalMs`.
 * @example
 * const violations = verifySchedule(nodes, simulateEager(nodes, { arrivalMs }), { arrivalMs });
 * if (violations.length > 0) throw new Error(violations.join('\n'));
 * @see simulateEager
 * @see verifyPlan
 */
export function verifySchedule(
  nodes: readonly PlanNode[],
  schedule: Schedule,
  options: VerifyScheduleOptions = {},
): string[] {
  checkPlannerOptions({
    subject: 'verifySchedule',
    options,
    known: ['maxConcurrency', 'arrivalMs', 'exactDurations'],
  });
  const slots = resolveMaxConcurrency(options);
  assertNodes(nodes, { estimates: options.exactDurations === true });
  const arrivals = resolveArrivalTimes(options.arrivalMs, nodes.length);
  const violations: string[] = [];
  if (!hasShape(nodes.length, schedule, violations)) return violations;
  const { startMs, endMs } = schedule;
  for (let call = 0; call < nodes.length; call++) {
    if (startMs[call]! < arrivals[call]!) {
      violations.push(
        `call ${call} starts at ${startMs[call]} ms, before it arrives at ${arrivals[call]} ms`,
      );
    }
    if (options.exactDurations === true) {
      const estimate = estimateOf(nodes[call]!);
      const ran = endMs[call]! - startMs[call]!;
      if (Math.abs(ran - estimate) > ROUNDING * Math.max(1, Math.abs(endMs[call]!))) {
        violations.push(`call ${call} runs for ${ran} ms, not its estimate of ${estimate} ms`);
      }
    }
  }
  checkPairs(nodes, schedule, violations);
  checkCap(schedule, slots, violations);
  return violations;
}

function hasShape(count: number, schedule: Schedule, violations: string[]): boolean {
  const starts: unknown = (schedule as { startMs?: unknown } | null)?.startMs;
  const ends: unknown = (schedule as { endMs?: unknown } | null)?.endMs;
  for (const [name, list] of [
    ['startMs', starts],
    ['endMs', ends],
  ] as const) {
    if (!Array.isArray(list) || list.length !== count) {
      violations.push(`the schedule's \`${name}\` is not an array of ${count} times, one per call`);
    }
  }
  if (violations.length > 0) return false;
  for (let call = 0; call < count; call++) {
    const start: unknown = (starts as unknown[])[call];
    const end: unknown = (ends as unknown[])[call];
    if (typeof start !== 'number' || !Number.isFinite(start)) {
      violations.push(`call ${call} has no finite start time, got ${String(start)}`);
    } else if (typeof end !== 'number' || !Number.isFinite(end)) {
      violations.push(`call ${call} has no finite end time, got ${String(end)}`);
    } else if (end < start) {
      violations.push(`call ${call} ends at ${end} ms, before it starts at ${start} ms`);
    }
  }
  return violations.length === 0;
}

/** Rules 2–5, pair by pair. */
function checkPairs(nodes: readonly PlanNode[], schedule: Schedule, violations: string[]): void {
  const { startMs, endMs } = schedule;
  for (let later = 1; later < nodes.length; later++) {
    for (let earlier = 0; earlier < later; earlier++) {
      if (endMs[earlier]! <= startMs[later]!) continue; // in order: nothing to break
      const a = nodes[earlier]!;
      const b = nodes[later]!;
      const edge = followsByEdge(a, b);
      if (edge !== undefined) {
        violations.push(
          `call ${later} starts before call ${earlier} ends, but follows it by an edge (\`${edge}\`): calls ${earlier} [${startMs[earlier]}, ${endMs[earlier]}) and ${later} [${startMs[later]}, ${endMs[later]})`,
        );
        continue;
      }
      const barrier = !a.parallelizable ? earlier : !b.parallelizable ? later : -1;
      if (barrier === -1 && !conflicts(a, b)) continue;
      const overlap = startMs[earlier]! < endMs[later]! && startMs[later]! < endMs[earlier]!;
      const when = `${earlier} [${startMs[earlier]}, ${endMs[earlier]}) and ${later} [${startMs[later]}, ${endMs[later]})`;
      if (barrier !== -1) {
        violations.push(
          overlap
            ? `call ${barrier} is not concurrency-safe but overlaps another call: calls ${when} (rule 2)`
            : `call ${barrier} is not concurrency-safe but call ${barrier === earlier ? later : earlier} crosses it: calls ${when} (rule 5)`,
        );
      } else {
        violations.push(
          overlap
            ? `conflicting calls overlap: calls ${when} (rule 3)`
            : `call ${later} runs before the earlier call ${earlier} it conflicts with: calls ${when} (rule 4)`,
        );
      }
    }
  }
}

/** No more than `slots` calls at any moment; calls that take 0 ms hold no slot. */
function checkCap(schedule: Schedule, slots: number, violations: string[]): void {
  const { startMs, endMs } = schedule;
  // Events as [time, +1 | -1], grouped by time: the count after a group is what runs from then.
  const events: [number, number][] = [];
  for (let call = 0; call < startMs.length; call++) {
    if (endMs[call]! > startMs[call]!) events.push([startMs[call]!, 1], [endMs[call]!, -1]);
  }
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let runningNow = 0;
  for (let e = 0; e < events.length; ) {
    const time = events[e]![0];
    for (; e < events.length && events[e]![0] === time; e++) runningNow += events[e]![1];
    if (runningNow > slots) {
      violations.push(
        `${runningNow} calls run at once from ${time} ms, more than \`maxConcurrency\` ${slots}`,
      );
    }
  }
}
