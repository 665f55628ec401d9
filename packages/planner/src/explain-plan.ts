import { AccessIndex, AccessRecord, type KeyNode } from './access-index.js';
import { accessesOf } from './accesses-of.js';
import { edgesOf } from './edges-of.js';
import {
  describeLimitUses,
  type ExplainLimits,
  type LimitUse,
  type LimitWait,
  limitUsesOf,
} from './limit-uses.js';
import { PlannerError } from './planner-error.js';
import type { AccessMode, CallEdge, EdgeSource, Plan, PlanNode } from './types.js';
import { checkPlannerOptions } from './unknown-options.js';
import { verifyPlan } from './verify-plan.js';

/** Why a call sits in its wave, in a form a UI can render. */
export type PlacementCause =
  /** Not concurrency-safe: alone in its wave. */
  | { readonly kind: 'unsafe' }
  /** After the wave of an earlier call it conflicts with (the one in the latest wave). */
  | {
      readonly kind: 'waits';
      /** The earlier call. */
      readonly call: number;
      /** The earlier call's access that conflicts. */
      readonly key: string;
      readonly mode: AccessMode;
      /** This call's access that conflicts with it. */
      readonly ownKey: string;
      readonly ownMode: AccessMode;
    }
  /** After an earlier call it follows by an ordering edge (the one in the latest wave). */
  | { readonly kind: 'edge'; readonly call: number; readonly source: EdgeSource }
  /** After an earlier call that is not concurrency-safe, which nothing crosses (rule 5). */
  | { readonly kind: 'barrier'; readonly call: number }
  /** Safe and keyless, nothing holds it back: the earliest open wave. */
  | { readonly kind: 'keyless' }
  /** Safe, has keys, no earlier call conflicts: the earliest open wave. */
  | { readonly kind: 'free' }
  /** Placed by the sequential planner: one call per wave. */
  | { readonly kind: 'sequential' }
  /** Later than any rule requires: the planner's choice; `earliest` is the first wave it could join. */
  | { readonly kind: 'planner-choice'; readonly earliest: number };

/** One call's placement: its wave and why. */
export interface CallExplanation {
  /** The call (position in model order). */
  readonly index: number;
  /** Its wave: the position in `plan.waves`, from 0 (the `reason` text counts waves from 1). */
  readonly wave: number;
  /**
   * The cause in words, e.g. "waits for call 0 on key fs:/a (write)"; every ordering edge of the
   * call is named too ("waits for call 2: `after`", "…; follows call 0 (`after`)").
   */
  readonly reason: string;
  readonly cause: PlacementCause;
  /** The call's ordering edges ({@link edgesOf}), when it has any. */
  readonly edges?: readonly CallEdge[];
  /**
   * With {@link ExplainPlanOptions.limits}: the named limits the call counts against, when any
   * ("counts against `api` (2 of 4)", also in `reason`).
   */
  readonly limits?: readonly LimitUse[];
  /**
   * Of {@link limits}, those the call may wait for behind others of its wave, when any: its wave
   * needs more of them than their capacity ("may wait for limit `api`: its wave needs 6 of 4").
   */
  readonly limitWaits?: readonly LimitWait[];
}

/** Options of {@link explainPlan}. */
export interface ExplainPlanOptions {
  /**
   * Whether the plan keeps rule 5, so that calls that are not concurrency-safe hold later calls
   * back. Default: `true` for plans of the `ordered` and `sequential` planners.
   */
  readonly ordered?: boolean;
  /**
   * The batch's named limits (capacities and each call's weights): each call's explanation then
   * names the limits it counts against and those its wave may make it wait for.
   */
  readonly limits?: ExplainLimits;
}

/**
 * For each call, why it sits in its wave. A call's constraint is the latest wave among its
 * conflicting earlier calls (and, for ordered plans, earlier calls that are not
 * concurrency-safe); first-fit puts it in the earliest wave after that which holds no unsafe
 * call. The reason names the binding constraint:
 * - "not concurrency-safe: runs alone";
 * - "waits for call 0 on key fs:/a (write)" (plus the call's own key when they differ by
 *   hierarchy);
 * - "waits for call 2: `after`" when an ordering edge holds it back (`after-previous`,
 *   `wait_for_previous` for calls that follow every earlier call);
 * - "stays after call 2, which is not concurrency-safe (rule 5)";
 * - "keyless: joins the earliest open wave", or "no earlier call conflicts with its keys:
 *   joins the earliest open wave";
 * - "sequential: one call per wave, in model order";
 * - for plans that put a call later than needed (e.g. a duration-aware planner):
 *   "placed by the planner: no rule keeps it out of wave 2".
 *
 * A call's edges that are not its binding constraint are named after it: "…; follows call 0
 * (`after`)", or "…; follows every earlier call (`wait_for_previous`)". With `limits`, so are
 * its named limits: "…; counts against `api` (2 of 4); may wait for limit `api`: its wave needs
 * 6 of 4" (a wave's calls start together, so a limit its wave over-subscribes may hold it back;
 * calls of other batches sharing the limits may too, which no plan can foresee).
 *
 * @throws {PlannerError} `invalid_plan` when the plan breaks the rules ({@link verifyPlan}).
 * @example
 * explainPlan(nodes, greedyPlanner().plan(nodes))[4];
 * // { index: 4, wave: 2, reason: 'waits for call 0 on key a (write)', cause: { kind: 'waits', ... } }
 * @see verifyPlan
 */
export function explainPlan(
  nodes: readonly PlanNode[],
  plan: Plan,
  options: ExplainPlanOptions = {},
): CallExplanation[] {
  checkPlannerOptions({ subject: 'explainPlan', options, known: ['ordered', 'limits'] });
  const ordered = options.ordered ?? (plan.planner === 'ordered' || plan.planner === 'sequential');
  const violations = verifyPlan(nodes, plan, { ordered });
  if (violations.length > 0) {
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : '';
    throw new PlannerError({
      code: 'invalid_plan',
      message: `Cannot explain a plan that breaks the rules: ${violations[0]}${more}`,
    });
  }

  const waveOf = new Int32Array(nodes.length);
  const unsafeWave = plan.waves.map(() => false);
  plan.waves.forEach((wave, w) => {
    for (const call of wave.calls) {
      waveOf[call] = w;
      if (!nodes[call]!.parallelizable) unsafeWave[w] = true;
    }
  });
  // joinable[p]: the first wave at position p or later that holds no unsafe call.
  const joinable = new Int32Array(plan.waves.length + 1).fill(plan.waves.length);
  for (let p = plan.waves.length - 1; p >= 0; p--) {
    joinable[p] = unsafeWave[p] ? joinable[p + 1]! : p;
  }

  const index = new AccessIndex();
  const latest = new AccessRecord();
  const keyNodes: KeyNode[] = [];
  let barrier = -1;
  // The call before the current one in the latest wave (-1: none), for `afterPrevious`.
  let latestCall = -1;
  const explanations: CallExplanation[] = [];
  for (let call = 0; call < nodes.length; call++) {
    const node = nodes[call]!;
    const wave = waveOf[call]!;
    const edge = bindingEdge(node, waveOf, latestCall);
    if (latestCall === -1 || wave > waveOf[latestCall]!) latestCall = call;
    const explain = (cause: PlacementCause): CallExplanation =>
      explanation(node, wave, cause, cause.kind === 'edge' ? undefined : edge);
    if (!node.parallelizable) {
      explanations.push(explain({ kind: 'unsafe' }));
      if (ordered) barrier = call;
      continue;
    }
    const own = accessesOf(node);
    keyNodes.length = 0;
    latest.clear();
    let ownAccess = -1;
    for (let a = 0; a < own.length; a++) {
      keyNodes.push(index.keyNode(own[a]!.key));
      if (index.latest(keyNodes[a]!, own[a]!.mode === 'write', latest)) ownAccess = a;
    }
    for (let a = 0; a < own.length; a++) {
      index.record(keyNodes[a]!, own[a]!.mode === 'write', wave, call, a);
    }

    const barrierWave = barrier === -1 ? -1 : waveOf[barrier]!;
    const edgeWave = edge === undefined ? -1 : waveOf[edge.call]!;
    const constraint = Math.max(latest.value, barrierWave, edgeWave);
    const earliest = joinable[constraint + 1]!;
    if (plan.planner === 'sequential') {
      explanations.push(explain({ kind: 'sequential' }));
    } else if (wave !== earliest) {
      explanations.push(explain({ kind: 'planner-choice', earliest }));
    } else if (edge !== undefined && edgeWave > Math.max(latest.value, barrierWave)) {
      explanations.push(explain({ kind: 'edge', call: edge.call, source: edge.source }));
    } else if (latest.value !== -1 && latest.value > barrierWave) {
      const theirs = accessesOf(nodes[latest.call]!)[latest.access]!;
      const mine = own[ownAccess]!;
      explanations.push(
        explain({
          kind: 'waits',
          call: latest.call,
          key: theirs.key,
          mode: theirs.mode,
          ownKey: mine.key,
          ownMode: mine.mode,
        }),
      );
    } else if (barrier !== -1) {
      explanations.push(explain({ kind: 'barrier', call: barrier }));
    } else {
      explanations.push(explain({ kind: own.length === 0 ? 'keyless' : 'free' }));
    }
  }
  if (options.limits === undefined) return explanations;
  const uses = limitUsesOf(plan, nodes.length, options.limits);
  return explanations.map((explained, call) => {
    const use = uses[call];
    if (use === undefined) return explained;
    const reason = `${explained.reason}; ${describeLimitUses(use)}`;
    const waits = use.limitWaits.length > 0 ? { limitWaits: use.limitWaits } : {};
    return { ...explained, reason, limits: use.limits, ...waits };
  });
}

/** Of a call's edges, the one to the call in the latest wave (ties: the earliest call). */
function bindingEdge(node: PlanNode, waveOf: Int32Array, latestCall: number): CallEdge | undefined {
  if (node.afterPrevious !== undefined) {
    if (latestCall === -1) return undefined;
    const source = node.after?.includes(latestCall) === true ? 'after' : node.afterPrevious;
    return { call: latestCall, source };
  }
  let binding: CallEdge | undefined;
  for (const call of node.after ?? []) {
    if (binding === undefined || waveOf[call]! > waveOf[binding.call]!) {
      binding = { call, source: 'after' };
    }
  }
  return binding;
}

/** A call's explanation; with edges, `reason` names those the cause does not (`binding`'s). */
function explanation(
  node: PlanNode,
  wave: number,
  cause: PlacementCause,
  binding: CallEdge | undefined,
): CallExplanation {
  const reason = describeCause(cause);
  if (binding === undefined && cause.kind !== 'edge')
    return { index: node.index, wave, reason, cause };
  const edges = edgesOf(node);
  const named = cause.kind === 'edge' ? cause.call : -1;
  const others = describeOtherEdges(node, named);
  return {
    index: node.index,
    wave,
    reason: others === '' ? reason : `${reason}; ${others}`,
    cause,
    edges,
  };
}

/** The edges of `node` other than the one to call `named`, in words ('' when none). */
function describeOtherEdges(node: PlanNode, named: number): string {
  const parts: string[] = [];
  const others = [...new Set(node.after)].filter((call) => call !== named).sort((a, b) => a - b);
  if (others.length > 0) {
    parts.push(`follows call${others.length > 1 ? 's' : ''} ${others.join(', ')} (\`after\`)`);
  }
  if (node.afterPrevious !== undefined) {
    parts.push(`follows every earlier call (\`${node.afterPrevious}\`)`);
  }
  return parts.join('; ');
}

function describeCause(cause: PlacementCause): string {
  switch (cause.kind) {
    case 'unsafe':
      return 'not concurrency-safe: runs alone';
    case 'waits': {
      const own =
        cause.ownKey === cause.key
          ? ''
          : `, which overlaps its key ${cause.ownKey} (${cause.ownMode})`;
      return `waits for call ${cause.call} on key ${cause.key} (${cause.mode})${own}`;
    }
    case 'edge':
      return `waits for call ${cause.call}: \`${cause.source}\``;
    case 'barrier':
      return `stays after call ${cause.call}, which is not concurrency-safe (rule 5)`;
    case 'keyless':
      return 'keyless: joins the earliest open wave';
    case 'free':
      return 'no earlier call conflicts with its keys: joins the earliest open wave';
    case 'sequential':
      return 'sequential: one call per wave, in model order';
    case 'planner-choice':
      return `placed by the planner: no rule keeps it out of wave ${cause.earliest + 1}`;
  }
}
