/** The requests in flight under each caller's signal, aborted together when it aborts. */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

/**
 * Runs one MCP request with an `AbortSignal` of its own that follows `signal` while the request
 * runs, and only then. The MCP SDK's `Protocol.request` adds an `abort` listener to the signal
 * it is given and never removes it, so every request handed a long-lived signal (a session's
 * shared by many calls, a listing's across its pages) would leave one more listener on it —
 * past ten, Node warns `MaxListenersExceededWarning`. Here the SDK's listener goes on the
 * request's own signal, dropped with it; `signal` carries one listener however many requests
 * run under it at once, removed when the last of them settles.
 *
 * @example
 * ```ts
 * const result = await withRequestSignal(context.signal, (requestSignal) =>
 *   client.callTool({ name, arguments: input }, undefined, { signal: requestSignal }),
 * );
 * ```
 */
export async function withRequestSignal<T>(
  signal: AbortSignal | undefined,
  request: (requestSignal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (signal === undefined) return request(undefined);
  const own = new AbortController();
  if (signal.aborted) {
    own.abort(signal.reason);
    return request(own.signal);
  }
  let requests = inFlight.get(signal);
  if (requests === undefined) {
    requests = new Set();
    inFlight.set(signal, requests);
    signal.addEventListener('abort', abortInFlight, { once: true });
  }
  requests.add(own);
  try {
    return await request(own.signal);
  } finally {
    requests.delete(own);
    if (requests.size === 0 && inFlight.get(signal) === requests) {
      inFlight.delete(signal);
      signal.removeEventListener('abort', abortInFlight);
    }
  }
}

function abortInFlight(event: Event): void {
  const signal = event.target as AbortSignal;
  const requests = inFlight.get(signal);
  inFlight.delete(signal);
  for (const request of requests ?? []) request.abort(signal.reason);
}
