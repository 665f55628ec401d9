/**
 * The name of a dispatch's span (a batch, a stream or a turn), the parent of its calls' spans.
 * It and the `toolwaves.*` names below are what toolwaves adds to the GenAI conventions: what only
 * a scheduler knows — how a dispatch ran, and why each call waited (for which earlier calls, how
 * long for their keys, how long for the fleet's lock).
 *
 * @example
 * ```ts
 * const waited = span.attributes[ATTR_TOOLWAVES_KEY_WAIT_MS]; // ms spent behind earlier calls
 * ```
 * @see ATTR_GEN_AI_TOOL_NAME for the conventions' own names.
 */
export const SPAN_NAME_TOOLWAVES_DISPATCH = 'toolwaves.dispatch';
/** The dispatch's mode: `sequential`, `parallel` or `eager`. */
export const ATTR_TOOLWAVES_DISPATCH_MODE = 'toolwaves.dispatch.mode';
/** How the calls reached the Dispatcher: `batch`, `stream` or `turn`. */
export const ATTR_TOOLWAVES_DISPATCH_SOURCE = 'toolwaves.dispatch.source';
/** The planner's name, when the dispatch ran in waves. */
export const ATTR_TOOLWAVES_DISPATCH_PLANNER = 'toolwaves.dispatch.planner';
/** The dispatch's cap on calls running at once. */
export const ATTR_TOOLWAVES_DISPATCH_MAX_CONCURRENCY = 'toolwaves.dispatch.max_concurrency';
/** The number of calls (up front for a batch; at the end for every dispatch). */
export const ATTR_TOOLWAVES_DISPATCH_CALL_COUNT = 'toolwaves.dispatch.call_count';
/** The number of waves, when the dispatch ran in waves. */
export const ATTR_TOOLWAVES_DISPATCH_WAVES = 'toolwaves.dispatch.waves';
/** How the dispatch ended: `ok`, `cancelled` or `failed`. */
export const ATTR_TOOLWAVES_DISPATCH_OUTCOME = 'toolwaves.dispatch.outcome';
/** The call's position in the turn (model order, from 0). */
export const ATTR_TOOLWAVES_CALL_INDEX = 'toolwaves.call.index';
/** The attempt this span covers: 1 for the first, 2 for the first retry, ... */
export const ATTR_TOOLWAVES_CALL_ATTEMPT = 'toolwaves.call.attempt';
/** How the attempt ended: `ok`, `error` (a soft error) or `cancelled`. */
export const ATTR_TOOLWAVES_CALL_OUTCOME = 'toolwaves.call.outcome';
/** Whether recovery tried the call again after this attempt. */
export const ATTR_TOOLWAVES_CALL_RETRIED = 'toolwaves.call.retried';
/** The ids of the earlier calls this call waited for (its span links point at their spans). */
export const ATTR_TOOLWAVES_CALL_WAITED_FOR = 'toolwaves.call.waited_for';
/** Time spent behind earlier calls in this process (dependencies, keys still held), ms. */
export const ATTR_TOOLWAVES_CALL_KEY_WAIT_MS = 'toolwaves.call.key_wait_ms';
/** Time spent waiting for the fleet coordinator's grant, ms. */
export const ATTR_TOOLWAVES_CALL_FLEET_WAIT_MS = 'toolwaves.call.fleet_wait_ms';
/** The fleet grant's fencing token, when a coordinator gave one. */
export const ATTR_TOOLWAVES_CALL_FENCING_TOKEN = 'toolwaves.call.fencing_token';
/** What a point of {@link METRIC_TOOLWAVES_CALL_WAIT_DURATION} waited for: `keys` or `fleet`. */
export const ATTR_TOOLWAVES_WAIT_KIND = 'toolwaves.wait.kind';
/** The histogram of time calls waited before they ran, in seconds, by {@link ATTR_TOOLWAVES_WAIT_KIND}. */
export const METRIC_TOOLWAVES_CALL_WAIT_DURATION = 'toolwaves.call.wait.duration';
/** The number of tools running now (granted and not yet ended), by tool name. */
export const METRIC_TOOLWAVES_CALLS_IN_FLIGHT = 'toolwaves.calls.in_flight';
