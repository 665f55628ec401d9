import { AccessIndex, AccessRecord, type KeyNode } from './access-index.js';
import { accessesOf } from './accesses-of.js';
import { assertNodes } from './assert-nodes.js';
import type { Plan, PlanNode } from './types.js';
import { checkPlannerOptions } from './unknown-options.js';

/** Options of {@link verifyPlan}. */
export interface VerifyPlanOptions {
  /** Also check rule 5 (what `ordered` and `sequential` promise). Default `false`. */
  readonly ordered?: boolean;
}

/**
 * Checks a plan against the rules and returns every violation found, in words; `[]` means the
 * plan is valid. Calls are numbered from 0 (model order), waves from 1 (run order).
 *
 * - rule 1: every call is in exactly one wave (also reports calls the batch does not have,
 *   duplicates and missing calls); waves are not empty and list their calls ascending;
 * - rule 2: a call that is not concurrency-safe is alone in its wave;
 * - rule 3: no two calls in one wave conflict ({@link conflicts});
 * - rule 4: of two conflicting concurrency-safe calls, the earlier runs in the earlier wave
 *   (the order of a safe call relative to an unsafe one is rule 5's business: greedy may move
 *   a safe call ahead of an unsafe one, as the seed's worked example does);
 * - edges: a call runs in a later wave than each call of its `after` list, and than every
 *   earlier call when `afterPrevious` is set;
 * - rule 5, with `ordered: true`: every call before a call that is not concurrency-safe runs in
 *   an earlier wave, every call after it in a later one.
 *
 * For rules 3 and 4 each call is checked against the conflicting earlier call in the latest
 * wave (found through an index, not by comparing all pairs), so a call reports at most one such
 * violation; a plan is reported invalid if and only if it breaks a rule.
 *
 * @throws {PlannerError} `invalid_nodes` when the nodes themselves are malformed.
 * @example
 * const violations = verifyPlan(nodes, plan, { ordered: true });
 * if (violations.length > 0) throw new Error(violations.join('\n'));
 * @see conflicts
 */
export function verifyPlan(
  nodes: readonly PlanNode[],
  plan: Plan,
  options: VerifyPlanOptions = {},
): string[] {
  assertNodes(nodes);
  checkPlannerOptions({ subject: 'verifyPlan', options, known: ['ordered'] });
  const violations: string[] = [];
  const waves: unknown = (plan as { waves?: unknown } | null)?.waves;
  if (!Array.isArray(waves)) {
    violations.push('the plan has no `waves` array');
    return violations;
  }
  const waveOf = placeCalls(nodes.length, waves, violations);
  checkUnsafeAlone(nodes, waves, waveOf, violations);
  checkConflicts(nodes, waveOf, violations);
  checkEdges(nodes, waveOf, violations);
  if (options.ordered === true) checkBarriers(nodes, waveOf, violations);
  return violations;
}

/** Rule 1 and the shape of each wave; returns each call's wave position (-1: none). */
function placeCalls(count: number, waves: unknown[], violations: string[]): Int32Array {
  const waveOf = new Int32Array(count).fill(-1);
  for (let w = 0; w < waves.length; w++) {
    const calls: unknown = (waves[w] as { calls?: unknown } | null)?.calls;
    if (!Array.isArray(calls)) {
      violations.push(`wave ${w + 1} has no \`calls\` array`);
      continue;
    }
    if (calls.length === 0) violations.push(`wave ${w + 1} is empty`);
    let previous = -1;
    for (const call of calls as unknown[]) {
      if (typeof call !== 'number' || !Number.isInteger(call) || call < 0 || call >= count) {
        violations.push(
          `wave ${w + 1} holds call ${String(call)}, which is not in the batch of ${count} calls (rule 1)`,
        );
        continue;
      }
      if (call <= previous) {
        violations.push(
          `wave ${w + 1} lists call ${call} after call ${previous}: calls must be ascending`,
        );
      }
      previous = Math.max(previous, call);
      const earlier = waveOf[call]!;
      if (earlier === -1) {
        waveOf[call] = w;
      } else if (earlier === w) {
        violations.push(`call ${call} appears twice in wave ${w + 1} (rule 1)`);
      } else {
        violations.push(
          `call ${call} is in wave ${earlier + 1} and again in wave ${w + 1} (rule 1)`,
        );
      }
    }
  }
  for (let call = 0; call < count; call++) {
    if (waveOf[call] === -1) violations.push(`call ${call} is in no wave (rule 1)`);
  }
  return waveOf;
}

/** Rule 2. */
function checkUnsafeAlone(
  nodes: readonly PlanNode[],
  waves: unknown[],
  waveOf: Int32Array,
  violations: string[],
): void {
  for (let call = 0; call < nodes.length; call++) {
    const w = waveOf[call]!;
    if (w === -1 || nodes[call]!.parallelizable) continue;
    const calls = (waves[w] as { calls: unknown[] }).calls;
    const others = [...new Set(calls)].filter((other) => other !== call);
    if (others.length === 0) continue;
    const shown = others.slice(0, 5).map(String).join(', ');
    const more = others.length > 5 ? ` and ${others.length - 5} more` : '';
    violations.push(
      `call ${call} is not concurrency-safe but shares wave ${w + 1} with call${others.length > 1 ? 's' : ''} ${shown}${more} (rule 2)`,
    );
  }
}

/** Rules 3 and 4, between concurrency-safe calls. */
function checkConflicts(
  nodes: readonly PlanNode[],
  waveOf: Int32Array,
  violations: string[],
): void {
  const index = new AccessIndex();
  const latest = new AccessRecord();
  const keyNodes: KeyNode[] = [];
  for (let call = 0; call < nodes.length; call++) {
    const node = nodes[call]!;
    const w = waveOf[call]!;
    if (w === -1 || !node.parallelizable) continue;
    // A keyless call (the usual safe tool) has no access to check or record: no list is made.
    if (node.resourceKey === undefined && node.access === undefined) continue;
    const own = accessesOf(node);
    keyNodes.length = 0;
    latest.clear();
    let ownAccess = -1;
    for (let a = 0; a < own.length; a++) {
      const keyNode = index.keyNode(own[a]!.key);
      keyNodes.push(keyNode);
      if (index.latest(keyNode, own[a]!.mode === 'write', latest)) ownAccess = a;
    }
    if (latest.value >= w) {
      const mine = own[ownAccess]!;
      const theirs = accessesOf(nodes[latest.call]!)[latest.access]!;
      const on = `${theirs.key} (${theirs.mode}) / ${mine.key} (${mine.mode})`;
      violations.push(
        latest.value === w
          ? `calls ${latest.call} and ${call} share wave ${w + 1} but conflict on ${on} (rule 3)`
          : `call ${call} runs in wave ${w + 1}, before earlier call ${latest.call} in wave ${latest.value + 1}, but they conflict on ${on} (rule 4)`,
      );
    }
    for (let a = 0; a < own.length; a++) {
      index.record(keyNodes[a]!, own[a]!.mode === 'write', w, call, a);
    }
  }
}

/** Ordering edges: a call runs in a later wave than every call it follows. */
function checkEdges(nodes: readonly PlanNode[], waveOf: Int32Array, violations: string[]): void {
  // latest: the call before `call` in the latest wave (-1: none), for `afterPrevious`.
  let latest = -1;
  for (let call = 0; call < nodes.length; call++) {
    const node = nodes[call]!;
    const w = waveOf[call]!;
    if (w !== -1) {
      if (node.afterPrevious !== undefined) {
        if (latest !== -1 && waveOf[latest]! >= w) {
          violations.push(
            edgeViolation({ call, earlier: latest, source: node.afterPrevious, waveOf }),
          );
        }
      } else if (node.after !== undefined) {
        for (const earlier of node.after) {
          if (waveOf[earlier] !== -1 && waveOf[earlier]! >= w) {
            violations.push(edgeViolation({ call, earlier, source: 'after', waveOf }));
          }
        }
      }
    }
    if (w !== -1 && (latest === -1 || w > waveOf[latest]!)) latest = call;
  }
}

/**
 * The message of a broken edge, built only when one is found (a closure made per call for it
 * cost every plan a function object per call, and under `tsx` a name-keeping call too).
 */
function edgeViolation(edge: {
  call: number;
  earlier: number;
  source: string;
  waveOf: Int32Array;
}): string {
  const { call, earlier, source, waveOf } = edge;
  return `call ${call} (wave ${waveOf[call]! + 1}) does not run after call ${earlier} (wave ${waveOf[earlier]! + 1}), which it follows by an edge (\`${source}\`)`;
}

/** Rule 5. */
function checkBarriers(nodes: readonly PlanNode[], waveOf: Int32Array, violations: string[]): void {
  const count = nodes.length;
  // latestBefore[i]: the call before i in the latest wave; earliestAfter[i]: after i, earliest.
  const latestBefore = new Int32Array(count).fill(-1);
  const earliestAfter = new Int32Array(count).fill(-1);
  for (let call = 1; call < count; call++) {
    const candidate = call - 1;
    const best = latestBefore[candidate]!;
    latestBefore[call] = better(candidate, best, waveOf, (a, b) => a > b);
  }
  for (let call = count - 2; call >= 0; call--) {
    const candidate = call + 1;
    const best = earliestAfter[candidate]!;
    earliestAfter[call] = better(candidate, best, waveOf, (a, b) => a < b);
  }
  for (let call = 0; call < count; call++) {
    const w = waveOf[call]!;
    if (w === -1 || nodes[call]!.parallelizable) continue;
    const before = latestBefore[call]!;
    if (before !== -1 && waveOf[before]! >= w) {
      violations.push(
        `call ${before} (wave ${waveOf[before]! + 1}) does not run before call ${call} (wave ${w + 1}), which is not concurrency-safe (rule 5)`,
      );
    }
    const after = earliestAfter[call]!;
    if (after !== -1 && waveOf[after]! <= w) {
      violations.push(
        `call ${after} (wave ${waveOf[after]! + 1}) does not run after call ${call} (wave ${w + 1}), which is not concurrency-safe (rule 5)`,
      );
    }
  }
}

/** Of two calls (either may be -1 or placed nowhere), the one whose wave wins `beats`. */
function better(
  candidate: number,
  best: number,
  waveOf: Int32Array,
  beats: (a: number, b: number) => boolean,
): number {
  if (waveOf[candidate] === -1) return best;
  if (best === -1) return candidate;
  return beats(waveOf[candidate]!, waveOf[best]!) ? candidate : best;
}
