import type { Tool, ToolCall } from '@toolwaves/core';

/** What a {@link PreHook} sees: one attempt, after its input was validated, before it runs. */
export interface PreHookContext {
  /** The call as the model asked for it, and its position in the batch. */
  readonly call: ToolCall;
  readonly index: number;
  /** The tool this attempt runs (a recovery correction may differ from `call.name`). */
  readonly tool: Tool;
  /** The validated input this attempt runs with. */
  readonly input: unknown;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** Aborted when the attempt must stop. */
  readonly signal: AbortSignal;
}

/** What a pre hook decides: `allow`, `block` (a soft error) or `abort` (a hard error). */
export type PreHookDecision =
  | { readonly action: 'allow' }
  | { readonly action: 'block'; readonly reason: string }
  | {
      readonly action: 'abort';
      readonly reason: string;
      readonly code?: 'aborted' | 'loop_detected';
    };

/** Runs before every attempt, in order, until one blocks or aborts (README: per-call pipeline). */
export type PreHook = (
  context: PreHookContext,
) => PreHookDecision | undefined | PromiseLike<PreHookDecision | undefined>;

/** What a {@link PostHook} sees: one attempt that ran its tool, and how it went. */
export interface PostHookContext {
  readonly call: ToolCall;
  readonly index: number;
  /** The tool this attempt ran. */
  readonly toolName: string;
  /** The validated input it ran with. */
  readonly input: unknown;
  /** The result content (for a soft error, the error message). */
  readonly content: string;
  readonly isError: boolean;
  /** How long the attempt ran, in ms. */
  readonly durationMs: number;
  readonly attempt: number;
}

/** Observes every attempt that ran its tool, in order; one that throws is a soft error (README). */
export type PostHook = (context: PostHookContext) => void | PromiseLike<void>;

/** The `hooks` option of a dispatcher: pre hooks (allow / block / abort), post hooks (observe). */
export interface DispatchHooks {
  readonly pre?: readonly PreHook[];
  readonly post?: readonly PostHook[];
}
