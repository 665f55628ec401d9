// `@toolwaves/core/internal`: what the toolwaves packages share among themselves (option checks,
// value descriptions, input validation, plan nodes for calls). Not for applications: these may
// change in any release.
export {
  CallEdges,
  type CallEdgesOptions,
  type EdgeFields,
  type EdgeFieldsOptions,
  edgeFields,
} from '../call-edges.js';
export {
  type CheckOptionOptions,
  checkOption,
  type OptionMessageOptions,
  optionMessage,
} from '../check-option.js';
export { type CheckOptionsOptions, checkOptions } from '../check-options.js';
export { describeValue } from '../describe-value.js';
export { type FleetClaim, type FleetClaimOptions, fleetClaimOf } from '../fleet-claim.js';
export { type OptionRule, optionRules } from '../option-rule.js';
export {
  type PlanNodeForCallOptions,
  type PlanNodeOfOptions,
  planNodeForCall,
  planNodeOf,
} from '../plan-node-for-call.js';
export {
  type Declarations,
  type NotSafeReason,
  type ReadDeclarationsOptions,
  readDeclarations,
  unreadableDeclarations,
} from '../read-declarations.js';
export { type ToolListOptions, toolList } from '../tool-list.js';
export { type InputValidation, validateInput } from '../validate-input.js';
export { mayStartWhileStreaming, WHILE_STREAMING } from '../while-streaming.js';
