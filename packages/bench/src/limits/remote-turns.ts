import { SeededRandom, seedFor } from '../workloads/seeded-random.js';

/** A rate-limited remote server: at most `cap` requests at once, more are refused (HTTP 429). */
export interface RemoteServer {
  /** Its name, also the name of the Dispatcher limit that mirrors its cap. */
  readonly name: string;
  readonly cap: number;
  /** Median time it takes to answer a request, ms. */
  readonly medianMs: number;
}

/** The two servers of the workload: caps 2 and 4. */
export const REMOTE_SERVERS: readonly RemoteServer[] = [
  { name: 'api-a', cap: 2, medianMs: 400 },
  { name: 'api-b', cap: 4, medianMs: 250 },
];

/** One call of a remote turn: the server it asks, and how long the server takes (sampled). */
export interface RemoteCall {
  readonly server: string;
  /** What the simulation runs; no strategy sees it. */
  readonly durationMs: number;
}

/** The calls of one model turn, in model order. */
export type RemoteTurn = readonly RemoteCall[];

/** Options of {@link remoteTurns}. */
export interface RemoteTurnsOptions {
  readonly seed: number;
  /** Turns to make. */
  readonly turns: number;
}

/**
 * The rate-limited workload: turns of 6 to 16 independent read calls (no keys: nothing but the
 * servers' caps keeps them apart), each to `api-a` or `api-b`; a turn leans on one server or
 * balances them (a quarter, half or three quarters to `api-a`). Durations are log-normal around
 * the server's median. Same seed, same turns.
 */
export function remoteTurns(options: RemoteTurnsOptions): RemoteTurn[] {
  return Array.from({ length: options.turns }, (_, item) => {
    const random = new SeededRandom(seedFor({ seed: options.seed, stream: 'remote', item }));
    const size = 6 + random.int(11);
    const shareA = random.pick([0.25, 0.5, 0.75]);
    return Array.from({ length: size }, (): RemoteCall => {
      const server = random.chance(shareA) ? REMOTE_SERVERS[0]! : REMOTE_SERVERS[1]!;
      return {
        server: server.name,
        durationMs: random.duration({ medianMs: server.medianMs, sigma: 0.3 }),
      };
    });
  });
}
