export type { Access, AccessMode, Plan, PlanNode, Planner, PlanOptions, Wave } from './types.js';
