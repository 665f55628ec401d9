// `@toolwaves/core/internal`: what the toolwaves packages share among themselves (option checks,
// value descriptions, input validation, plan nodes for calls). Not for applications: these may
// change in any release.
export {
  type CheckOptionOptions,
  checkOption,
  type OptionMessageOptions,
  optionMessage,
} from '../check-option.js';
export { describeValue } from '../describe-value.js';
export { type OptionRule, optionRules } from '../option-rule.js';
export { type PlanNodeForCallOptions, planNodeForCall } from '../plan-node-for-call.js';
export { type InputValidation, validateInput } from '../validate-input.js';
