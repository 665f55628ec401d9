import { assertNodes } from './assert-nodes.js';
import { blockCost } from './block-cost.js';
import { branchAndBound, MAX_EXACT_CALLS, type Partition } from './branch-and-bound.js';
import { type ConflictGraph, conflictGraph } from './conflict-graph.js';
import { estimateOf } from './estimate-of.js';
import { firstFit } from './first-fit.js';
import { improveLayout } from './improve-layout.js';
import { longestFirstFit } from './longest-first-fit.js';
import { lowerBound } from './lower-bound.js';
import { makespan } from './makespan.js';
import { resolveMaxConcurrency } from './max-concurrency.js';
import {
  type OptimalPlannerOptions,
  resolveOptimalPlannerOptions,
} from './optimal-planner-options.js';
import { orderWaves } from './order-waves.js';
import { splitWaves } from './split-waves.js';
import { swapCalls } from './swap-calls.js';
import type { Plan, PlanNode, Planner, PlanOptions } from './types.js';
import { checkPlannerOptions, PLAN_OPTIONS } from './unknown-options.js';
import { WaveLayout } from './wave-layout.js';
import { WorkBudget } from './work-budget.js';

/**
 * The plan with the least {@link makespan} under `maxConcurrency` (ties: the fewest waves)
 * among all plans that keep rules 1–4: every call in one wave, a call that is not
 * concurrency-safe alone, no two conflicting calls together, and of two conflicting calls the
 * earlier one first. Durations are the calls' `estimateMs`; a missing estimate counts as
 * {@link DEFAULT_ESTIMATE_MS}, so calls without estimates weigh the same. The `Dispatcher` of
 * `@toolwaves/executor-rx` fills `estimateMs` from its health record of each tool (through
 * `registry.toPlanNodes(calls, { estimateMs })` of `@toolwaves/core`), so plans follow the
 * latencies it has measured.
 *
 * How: calls that are not concurrency-safe cost the same wherever their singleton waves go, so
 * the search is over the safe calls. The starting plan is the best of {@link greedyPlanner}'s
 * and a longest-first, duration-aware packing, each improved by local search (moving one call
 * to another wave, swapping two calls, splitting a wave whose list schedule misfires). A plan
 * that meets {@link lowerBound} is optimal at once; otherwise a branch and bound over the
 * waves (exact, for up to 30 safe calls) proves the plan optimal or finds the optimum, within
 * the work budget `maxExpansions` — a quarter of it for the heuristics, the rest for the
 * search — so the plan does not depend on the machine's speed or load; `budgetMs` is only an
 * upper limit on time (a quarter of it for the heuristics too). The plan says `proven: true`
 * only when optimality was proven; otherwise (a budget spent, or a larger batch) it is the best
 * plan found, `proven: false`, and never worse than greedy's — neither in makespan nor, at
 * equal makespan, in wave count. Batches of up to 16 calls are typically proven within the
 * default budgets (see the package README for measured figures).
 *
 * Waves are run in an order that keeps rule 4 and otherwise follows model order as closely as
 * the partition allows. Safe waves are marked open, the singletons of unsafe calls closed. Rule
 * 5 (nothing crosses an unsafe call) is not promised.
 *
 * @throws {PlannerError} `invalid_options` for a bad `budgetMs` or `maxExpansions` (when
 * created) or `maxConcurrency` (when planning); `invalid_nodes` for malformed nodes or
 * estimates.
 * @example
 * const nodes = [
 *   { index: 0, parallelizable: true, estimateMs: 2 },
 *   { index: 1, parallelizable: true, estimateMs: 2 },
 *   { index: 2, parallelizable: true, estimateMs: 1 },
 *   { index: 3, parallelizable: true, estimateMs: 1 },
 *   { index: 4, parallelizable: true, estimateMs: 2 },
 * ];
 * greedyPlanner().plan(nodes).waves.length; // 1: makespan 5 on 2 slots
 * const plan = optimalPlanner().plan(nodes, { maxConcurrency: 2 });
 * plan.waves.map((wave) => wave.calls); // [[0, 2, 3], [1, 4]]: makespan 4
 * plan.proven; // true
 * @see greedyPlanner
 * @see makespan
 * @see lowerBound
 */
export function optimalPlanner(options?: OptimalPlannerOptions): Planner {
  const { budgetMs, maxExpansions } = resolveOptimalPlannerOptions(options);
  checkPlannerOptions({ subject: 'optimalPlanner', options, known: ['budgetMs', 'maxExpansions'] });
  return {
    name: 'optimal',
    plan(nodes, planOptions) {
      checkPlannerOptions({
        subject: 'optimalPlanner().plan',
        options: planOptions,
        known: PLAN_OPTIONS,
      });
      const slots = resolveMaxConcurrency(planOptions);
      assertNodes(nodes, { estimates: true });
      const start = performance.now();
      const greedy = firstFit(nodes, { planner: 'optimal', ordered: false });
      const graph = conflictGraph(nodes, { deadline: start + budgetMs });
      if (graph === undefined) return { ...greedy, proven: false };
      const plan = search(nodes, graph, greedy, {
        slots,
        planOptions,
        deadline: start + budgetMs,
        heuristicDeadline: start + budgetMs / 4,
        maxExpansions,
      });
      return notWorse(nodes, plan, greedy, planOptions);
    },
  };
}

interface SearchOptions {
  readonly slots: number;
  readonly planOptions: PlanOptions | undefined;
  /** When planning must end (a `performance.now()` value): an upper limit only. */
  readonly deadline: number;
  /** When the heuristics stop at the latest, to leave time to the exact search. */
  readonly heuristicDeadline: number;
  /** Steps of work for the whole search: heuristics and exact search together. */
  readonly maxExpansions: number;
}

function search(
  nodes: readonly PlanNode[],
  graph: ConflictGraph,
  greedy: Plan,
  options: SearchOptions,
): Plan {
  const { slots, deadline, maxExpansions } = options;
  const exact = graph.safe.length <= MAX_EXACT_CALLS;
  // The heuristics may take a quarter of the work (and of the time) when the exact search
  // follows, all of it otherwise; the search gets what they leave.
  const heuristics = new WorkBudget(
    exact
      ? { steps: Math.floor(maxExpansions / 4), deadline: options.heuristicDeadline }
      : { steps: maxExpansions, deadline },
  );

  let best = partitionOf(new WaveLayout(graph, slots, safeBlocks(graph, greedy, nodes.length)));
  const starts = [new WaveLayout(graph, slots, best.blocks)];
  const longestFirst = longestFirstFit(graph, slots, heuristics);
  if (longestFirst !== undefined) starts.push(longestFirst);
  for (const layout of starts) {
    const candidate = partitionOf(polish(layout, heuristics));
    if (better(candidate, best)) best = candidate;
  }

  // No partition of the safe calls beats this: the makespan bound less the unsafe calls' work,
  // and one wave per call of the longest chain of conflicting safe calls.
  let unsafeWork = 0;
  for (const call of graph.unsafe) unsafeWork += estimateOf(nodes[call]!);
  const tolerance = 1e-9 * Math.max(1, best.cost);
  const whole = graph.durations.every(Number.isInteger);
  const costBound = Math.max(0, lowerBound(nodes, options.planOptions) - unsafeWork);
  const bound = {
    cost: whole ? Math.ceil(costBound - tolerance) : costBound,
    waves: longestChain(graph),
  };
  let proven = best.cost <= bound.cost + tolerance && best.waves <= bound.waves;
  if (!proven && exact) {
    const result = branchAndBound({
      graph,
      slots,
      incumbent: best,
      budget: new WorkBudget({ steps: maxExpansions - heuristics.spent, deadline }),
    });
    best = result;
    proven = result.proven;
  }
  return { planner: 'optimal', waves: orderWaves(graph, best.blocks), proven };
}

/**
 * Local search until nothing improves or the budget runs out: single-call moves, swaps of two
 * calls, splits of waves whose list schedule misfires.
 */
function polish(layout: WaveLayout, budget: WorkBudget): WaveLayout {
  for (;;) {
    improveLayout(layout, budget);
    if (budget.exhausted) break;
    if (swapCalls(layout, budget)) continue;
    if (budget.exhausted || !splitWaves(layout, budget)) break;
  }
  return layout;
}

/** The safe waves of a plan, as groups of safe positions. */
function safeBlocks(graph: ConflictGraph, plan: Plan, count: number): number[][] {
  const positionOf = new Int32Array(count).fill(-1);
  graph.safe.forEach((call, position) => {
    positionOf[call] = position;
  });
  return plan.waves
    .map((wave) => wave.calls.map((call) => positionOf[call]!).filter((position) => position >= 0))
    .filter((block) => block.length > 0);
}

function partitionOf(layout: WaveLayout): Partition {
  const blocks = layout.blocks.map((block) => [...block]);
  let cost = 0;
  for (const block of blocks) cost += blockCost(block, layout.graph.durations, layout.slots);
  return { blocks, cost, waves: blocks.length };
}

function better(a: Partition, b: Partition): boolean {
  return a.cost < b.cost || (a.cost === b.cost && a.waves < b.waves);
}

/** The most safe calls that must each run in a wave of their own, one after another. */
function longestChain(graph: ConflictGraph): number {
  const depth = new Int32Array(graph.safe.length);
  let longest = 0;
  graph.earlier.forEach((before, position) => {
    let deepest = 0;
    for (const other of before) deepest = Math.max(deepest, depth[other]!);
    depth[position] = deepest + 1;
    longest = Math.max(longest, deepest + 1);
  });
  return longest;
}

/** The plan, unless rounding made it worse than greedy's: then greedy's, not proven. */
function notWorse(
  nodes: readonly PlanNode[],
  plan: Plan,
  greedy: Plan,
  planOptions: PlanOptions | undefined,
): Plan {
  const mine = makespan(nodes, plan, planOptions);
  const theirs = makespan(nodes, greedy, planOptions);
  if (mine < theirs || (mine === theirs && plan.waves.length <= greedy.waves.length)) return plan;
  return { ...greedy, proven: false };
}
