import {
  greedyPlanner,
  optimalPlanner,
  orderedPlanner,
  type Planner,
  sequentialPlanner,
} from '@toolwaves/planner';
import type { PlannerName } from './cli-options.js';

/** The planner a `--planner` name stands for. */
export function plannerByName(name: PlannerName): Planner {
  switch (name) {
    case 'greedy':
      return greedyPlanner();
    case 'ordered':
      return orderedPlanner();
    case 'sequential':
      return sequentialPlanner();
    case 'optimal':
      return optimalPlanner();
  }
}
