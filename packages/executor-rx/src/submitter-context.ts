import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Runs `work(...args)` in the async context (every `AsyncLocalStorage`'s value) of the code that
 * submitted a call, and returns what it returns.
 */
export type SubmitterContext = <R, A extends unknown[]>(work: (...args: A) => R, ...args: A) => R;

// A call may start when another call ends, a hook's promise settles, a timer fires or a fleet
// grant arrives: each of those runs in someone else's async context. Frameworks, tracing and
// platforms keep per-request state there (LangGraph's config, the active span, a tenant id), so
// the submitter's context is captured where the call was handed over (`dispatch`, `run`, a
// stream's arrival, `turn.run`) and entered around everything that runs the call's own code:
// the tool, its hooks, its recovery, its fleet request and its instrumentation.

/** The current async context, to enter later around a call's own code. */
export function captureSubmitterContext(): SubmitterContext {
  return AsyncLocalStorage.snapshot();
}
