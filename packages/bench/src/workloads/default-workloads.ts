import { barrierHeavyWorkload } from './barrier-heavy-workload.js';
import { exploreWorkload } from './explore-workload.js';
import { hotFileWorkload } from './hot-file-workload.js';
import { mixedTurnWorkload } from './mixed-turn-workload.js';
import { refactorWorkload } from './refactor-workload.js';
import { remoteToolsWorkload } from './remote-tools-workload.js';
import { seedExampleWorkload } from './seed-example-workload.js';
import { seedModelWorkload } from './seed-model-workload.js';
import type { Workload } from './workload.js';

/**
 * Every built-in workload, in report order: explore, refactor, mixed, hot-file, barriers
 * (real tool calls), then seed-example and seed-model (seed-model nodes).
 *
 * @example generateBatches({ workloads: defaultWorkloads(), registry, seed: 1, sizes: [2, 8, 64] });
 */
export function defaultWorkloads(): Workload[] {
  return [
    exploreWorkload(),
    refactorWorkload(),
    mixedTurnWorkload(),
    hotFileWorkload(),
    barrierHeavyWorkload(),
    remoteToolsWorkload(),
    seedExampleWorkload(),
    seedModelWorkload(),
  ];
}
