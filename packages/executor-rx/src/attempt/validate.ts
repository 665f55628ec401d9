import { softError, unknownToolAnswer } from '../attempt-answer.js';
import { type Answered, answeredEarly, type ToolInput } from './answered.js';
import type { Attempt } from './attempt.js';

/**
 * Stage 1: the tool and the validated input, or the soft error of an unknown tool (listing the
 * registered names) or of an invalid input (naming each wrong field). The input was parsed once
 * for the call (`PreparedCall.validation`), when it was planned.
 */
export function validate(attempt: Attempt): ToolInput | Answered {
  const { tool, validation, toolName } = attempt.prepared;
  if (tool === undefined) {
    return answeredEarly(unknownToolAnswer(toolName, attempt.batch.config.registry.names()));
  }
  if (validation?.ok !== true) {
    return answeredEarly(softError('invalid_input', validation?.message ?? ''));
  }
  return { tool, value: validation.value };
}
