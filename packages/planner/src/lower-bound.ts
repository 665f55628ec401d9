import { AccessIndex, AccessRecord, type KeyNode } from './access-index.js';
import { assertNodes } from './assert-nodes.js';
import { estimateOf } from './estimate-of.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import type { PlanNode, PlanOptions } from './types.js';

/**
 * A duration no plan that keeps rules 1–4 can beat ({@link makespan} of any valid plan is at
 * least this), for judging planners. Waves never overlap, and each call that is not
 * concurrency-safe has a wave to itself, so with U the summed estimates of those calls it is
 * the largest of:
 * - U + the longest chain of concurrency-safe calls that must serialize: a path in the
 *   precedence graph where an earlier call precedes a later one it {@link conflicts} with,
 *   weighted by estimates (each call of the chain needs its own, later wave);
 * - U + the work of the safe calls divided by `maxConcurrency` (default 8), which is at least
 *   the total work divided by the cap;
 * - the longest single call.
 *
 * Estimates default to {@link DEFAULT_ESTIMATE_MS}. The chain is found in one pass with an
 * index of accesses by key, not by comparing all pairs.
 *
 * @throws {PlannerError} `invalid_options` / `invalid_nodes` for bad input.
 * @example
 * lowerBound(nodes, { maxConcurrency: 8 }) <= makespan(nodes, plan, { maxConcurrency: 8 }); // true for a valid plan
 * @see makespan
 */
export function lowerBound(nodes: readonly PlanNode[], options?: PlanOptions): number {
  const slots = resolveMaxConcurrency(options);
  assertNodes(nodes, { estimates: true });
  const index = new AccessIndex();
  const latest = new AccessRecord();
  const keyNodes: KeyNode[] = [];
  let unsafeWork = 0;
  let safeWork = 0;
  let longestCall = 0;
  let longestChain = 0;
  for (let call = 0; call < nodes.length; call++) {
    const node = nodes[call]!;
    const estimate = estimateOf(node);
    if (estimate > longestCall) longestCall = estimate;
    if (!node.parallelizable) {
      unsafeWork += estimate;
      continue;
    }
    safeWork += estimate;
    keyNodes.length = 0;
    latest.clear();
    const { resourceKey, access } = node;
    if (resourceKey !== undefined) keyNodes.push(index.keyNode(resourceKey));
    const writes: boolean[] = resourceKey === undefined ? [] : [true];
    for (const entry of access ?? []) {
      keyNodes.push(index.keyNode(entry.key));
      writes.push(entry.mode === 'write');
    }
    for (let a = 0; a < keyNodes.length; a++) index.latest(keyNodes[a]!, writes[a]!, latest);
    const chain = estimate + Math.max(0, latest.value);
    if (chain > longestChain) longestChain = chain;
    for (let a = 0; a < keyNodes.length; a++) {
      index.record(keyNodes[a]!, writes[a]!, chain, call, a);
    }
  }
  return Math.max(unsafeWork + longestChain, unsafeWork + safeWork / slots, longestCall);
}
