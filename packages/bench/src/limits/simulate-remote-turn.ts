import { greedyPlanner, LimitedReadyQueue, NamedLimits } from '@toolwaves/planner';
import type { RemoteServer, RemoteTurn } from './remote-turns.js';

/** How a strategy runs a remote turn, as far as the servers' caps matter. */
export interface RemoteStrategy {
  readonly name: string;
  readonly description: string;
  /** `'waves'`: the greedy planner's waves, one after another; `'eager'`: the ready queue. */
  readonly execution: 'waves' | 'eager';
  /** Calls running at once (the Dispatcher's `maxConcurrency`); `Infinity`: no cap. */
  readonly maxConcurrency: number;
}

/** What a refused request costs: its round trip, then the client's back-off before it asks again. */
export const REJECT_MS = 30;
/** The first back-off after a 429, ms; doubled after each further one, up to {@link MAX_BACKOFF_MS}. */
export const FIRST_BACKOFF_MS = 100;
export const MAX_BACKOFF_MS = 1_600;

/** Options of {@link simulateRemoteTurn}. */
export interface SimulateRemoteTurnOptions {
  readonly turn: RemoteTurn;
  readonly servers: readonly RemoteServer[];
  readonly strategy: RemoteStrategy;
  /** The Dispatcher has a limit per server at the server's cap (each call weight 1). */
  readonly namedLimits: boolean;
}

/** One strategy on one turn. */
export interface RemoteTurnResult {
  /** From the turn's start to its last answer, ms. */
  readonly turnMs: number;
  /** Requests a server refused because it already ran its cap (each retried after a back-off). */
  readonly rejections: number;
  /** When each call's first request was sent, ms. */
  readonly startMs: readonly number[];
}

interface Pending {
  readonly at: number;
  readonly seq: number;
  readonly call: number;
  readonly kind: 'answered' | 'retry';
}

/**
 * Runs one turn against servers that refuse what passes their cap: a call holds its client slot
 * (and its limit, with named limits) from its first request to its answer, back-offs included,
 * as a Dispatcher's retries do. The client side is the planner's `LimitedReadyQueue` (the
 * Dispatcher's own queue): in waves, one queue per wave; eager, one for the turn. The strategy
 * sees no duration. Pure and exact: event-driven, ties in the order they were made.
 */
export function simulateRemoteTurn(options: SimulateRemoteTurnOptions): RemoteTurnResult {
  const { turn, servers, strategy, namedLimits } = options;
  const serverOf = new Map(servers.map((server) => [server.name, server]));
  const nodes = turn.map((_, index) => ({ index, parallelizable: true }));
  const groups =
    strategy.execution === 'waves'
      ? greedyPlanner()
          .plan(nodes)
          .waves.map((wave) => wave.calls)
      : [nodes.map((node) => node.index)];
  const limits = new NamedLimits(
    namedLimits ? Object.fromEntries(servers.map((server) => [server.name, server.cap])) : {},
  );
  const inFlight = new Map<string, number>();
  const attempts: number[] = turn.map(() => 0);
  const startMs: number[] = turn.map(() => 0);
  const pending: Pending[] = [];
  let seq = 0;
  let now = 0;
  let rejections = 0;
  const schedule = (at: number, call: number, kind: Pending['kind']): void => {
    const event = { at, seq: seq++, call, kind };
    let i = pending.length;
    while (
      i > 0 &&
      (pending[i - 1]!.at > at || (pending[i - 1]!.at === at && pending[i - 1]!.seq > event.seq))
    )
      i--;
    pending.splice(i, 0, event);
  };
  const send = (call: number): void => {
    const { server, durationMs } = turn[call]!;
    const cap = serverOf.get(server)!.cap;
    const running = inFlight.get(server) ?? 0;
    attempts[call]! += 1;
    if (running < cap) {
      inFlight.set(server, running + 1);
      schedule(now + durationMs, call, 'answered');
      return;
    }
    rejections += 1;
    const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (attempts[call]! - 1), MAX_BACKOFF_MS);
    schedule(now + REJECT_MS + backoff, call, 'retry');
  };
  for (const group of groups) {
    const queue = new LimitedReadyQueue({ limits });
    for (const call of group) {
      queue.add({
        index: call,
        dependencies: [],
        limits: namedLimits ? { [turn[call]!.server]: 1 } : undefined,
      });
    }
    const cap = Math.min(strategy.maxConcurrency, group.length);
    let running = 0;
    let ended = 0;
    while (ended < group.length) {
      while (running < cap) {
        const call = queue.take();
        if (call === undefined) break;
        running += 1;
        startMs[call] = now;
        send(call);
      }
      const event = pending.shift();
      if (event === undefined)
        throw new Error('a remote turn stalled: nothing runs, nothing starts');
      now = event.at;
      if (event.kind === 'retry') {
        send(event.call);
        continue;
      }
      const server = turn[event.call]!.server;
      inFlight.set(server, inFlight.get(server)! - 1);
      running -= 1;
      ended += 1;
      queue.end(event.call);
    }
  }
  return { turnMs: now, rejections, startMs };
}
