import type { Tool } from '@toolwaves/core';
import {
  type Declarations,
  type InputValidation,
  readDeclarations,
  unreadableDeclarations,
} from '@toolwaves/core/internal';

// How a prepared call reads its tool's declarations: through core's single reader (the plan node
// and the fleet request are both built from what it answers), or, when there is nothing to read
// (no such tool, an input that failed validation), the unreadable answer that runs alone.

/** A call's declarations: unreadable for an unknown tool or an invalid input. */
export function declarationsOf(
  tool: Tool | undefined,
  validation: InputValidation<unknown> | undefined,
  fleetExclusiveForUnsafe: boolean,
): Declarations {
  if (tool === undefined) return UNKNOWN_TOOL;
  if (validation?.ok !== true) return INVALID_INPUT;
  // One of two options objects made once, not one per call.
  return readDeclarations(
    tool,
    validation.value,
    fleetExclusiveForUnsafe ? UNSAFE_HOLD_ALL : UNSAFE_HOLD_DECLARED,
  );
}

/** An unsafe call holds the namespace fleet-wide: its key and accesses are not read. */
const UNSAFE_HOLD_ALL = { accessesWhenUnsafe: false } as const;
/** An unsafe call holds what it declares fleet-wide: its key and accesses are read too. */
const UNSAFE_HOLD_DECLARED = { accessesWhenUnsafe: true } as const;

const UNKNOWN_TOOL = unreadableDeclarations('unknown_tool');
const INVALID_INPUT = unreadableDeclarations('invalid_input');
