import type { Spread } from '../report/bench-report.js';
import { spreadOf } from '../simulate/summarize-strategies.js';
import { REMOTE_SERVERS, type RemoteServer, remoteTurns } from './remote-turns.js';
import { type RemoteStrategy, simulateRemoteTurn } from './simulate-remote-turn.js';

/** One way to run the rate-limited turns, without and with the Dispatcher's named limits. */
export interface RateLimitedRow {
  readonly strategy: string;
  readonly description: string;
  /** Only the global cap: summed turn time per seed (ms) and refused requests per seed. */
  readonly globalCapOnly: { readonly turnMs: Spread; readonly rejections: Spread };
  /** The same, with a named limit per server at its cap. */
  readonly namedLimits: { readonly turnMs: Spread; readonly rejections: Spread };
}

/** The rate-limited workload's figures (`BenchReport.rateLimited`). */
export interface RateLimitedFigures {
  readonly servers: readonly RemoteServer[];
  /** Turns and calls per seed. */
  readonly turns: number;
  readonly calls: number;
  readonly rows: readonly RateLimitedRow[];
}

/** Options of {@link compareRemoteStrategies}. */
export interface CompareRemoteStrategiesOptions {
  readonly seeds: readonly number[];
  /** Turns per seed. */
  readonly turns: number;
  /** The cap of the capped strategies (the bench's `maxConcurrency`). */
  readonly maxConcurrency: number;
}

/**
 * The strategies of the rate-limited workload: the bench's capped ones at its `maxConcurrency`,
 * a global cap at the smaller server's cap (never refused, but the larger server idles) and at
 * the sum of the caps (both busy, but one turn may send every call to one server), and no cap.
 */
export function remoteStrategies(maxConcurrency: number): RemoteStrategy[] {
  const caps = REMOTE_SERVERS.map((server) => server.cap);
  const smallest = Math.min(...caps);
  const sum = caps.reduce((total, cap) => total + cap, 0);
  return [
    {
      name: 'sequential',
      description: 'one call at a time',
      execution: 'eager',
      maxConcurrency: 1,
    },
    {
      name: 'greedy',
      description: `greedy waves under \`maxConcurrency\` ${maxConcurrency}`,
      execution: 'waves',
      maxConcurrency,
    },
    {
      name: 'eager',
      description: `eager under \`maxConcurrency\` ${maxConcurrency}`,
      execution: 'eager',
      maxConcurrency,
    },
    {
      name: `eager, cap ${smallest}`,
      description: `eager under a global cap of ${smallest}, the smaller server's cap`,
      execution: 'eager',
      maxConcurrency: smallest,
    },
    {
      name: `eager, cap ${sum}`,
      description: `eager under a global cap of ${sum}, the sum of the servers' caps`,
      execution: 'eager',
      maxConcurrency: sum,
    },
    {
      name: 'all-at-once',
      description: 'every call at once, no cap',
      execution: 'eager',
      maxConcurrency: Number.POSITIVE_INFINITY,
    },
  ];
}

/**
 * Every strategy of {@link remoteStrategies} on the same seeded turns, with only its global cap
 * and with a named limit per server: summed turn time and refused requests, per seed.
 */
export function compareRemoteStrategies(
  options: CompareRemoteStrategiesOptions,
): RateLimitedFigures {
  const bySeed = options.seeds.map((seed) => remoteTurns({ seed, turns: options.turns }));
  const rows = remoteStrategies(options.maxConcurrency).map((strategy): RateLimitedRow => {
    const figures = (namedLimits: boolean) => {
      const perSeed = bySeed.map((turns) =>
        turns.map((turn) =>
          simulateRemoteTurn({ turn, servers: REMOTE_SERVERS, strategy, namedLimits }),
        ),
      );
      return {
        turnMs: spreadOf(perSeed.map((results) => results.reduce((sum, r) => sum + r.turnMs, 0))),
        rejections: spreadOf(
          perSeed.map((results) => results.reduce((sum, r) => sum + r.rejections, 0)),
        ),
      };
    };
    return {
      strategy: strategy.name,
      description: strategy.description,
      globalCapOnly: figures(false),
      namedLimits: figures(true),
    };
  });
  const first = bySeed[0] ?? [];
  return {
    servers: REMOTE_SERVERS,
    turns: options.turns,
    calls: first.reduce((sum, turn) => sum + turn.length, 0),
    rows,
  };
}
