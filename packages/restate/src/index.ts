export {
  type DurableExecute,
  type DurableExecuteOptions,
  durableExecute,
} from './durable-execute.js';
export { JournalDriver } from './journal-driver.js';
export { mayRerun } from './may-rerun.js';
export { RestateTurnError, type RestateTurnErrorCode } from './restate-turn-error.js';
export { type DurableTurnOptions, runDurableTurn, type TurnOpener } from './run-durable-turn.js';
export { cutByCrashText, type StepOutcome } from './step-outcome.js';
