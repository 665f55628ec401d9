import { formatDuration, formatRatio, formatSpread } from '../report/format-figures.js';
import type { ReportBlock } from '../report/report-blocks.js';
import type { RateLimitedFigures } from './compare-remote-strategies.js';
import { FIRST_BACKOFF_MS, REJECT_MS } from './simulate-remote-turn.js';

/** The rate-limited workload in the headline: each strategy without and with named limits. */
export function rateLimitedBlocks(figures: RateLimitedFigures | undefined): ReportBlock[] {
  if (figures === undefined) return [];
  const servers = figures.servers.map((server) => `\`${server.name}\` (cap ${server.cap})`);
  const whole = (value: number): string => String(Math.round(value));
  return [
    {
      kind: 'paragraph',
      text: `Rate-limited servers: ${figures.turns} turns per seed (${figures.calls} calls in the first seed's) of independent calls to two remote servers, ${servers.join(' and ')}. A server refuses a request past its cap (HTTP 429, ${REJECT_MS} ms), and the call retries after a back-off (${FIRST_BACKOFF_MS} ms, doubling), holding its slot. A global cap alone either overloads one server (refusals) or idles the other; named limits (\`limits: { ${figures.servers.map((s) => `'${s.name}': ${s.cap}`).join(', ')} }\`, each call weight 1 in its server's) do neither. Summed turn time per seed, median [min–max]; no strategy sees a duration.`,
    },
    {
      kind: 'table',
      headers: [
        'strategy',
        'global cap only',
        'refused',
        'with named limits',
        'refused',
        'limits ÷ global only',
      ],
      rows: figures.rows.map((row) => [
        row.strategy,
        formatSpread(row.globalCapOnly.turnMs, formatDuration),
        formatSpread(row.globalCapOnly.rejections, whole),
        formatSpread(row.namedLimits.turnMs, formatDuration),
        formatSpread(row.namedLimits.rejections, whole),
        formatRatio(row.namedLimits.turnMs.median / row.globalCapOnly.turnMs.median),
      ]),
    },
  ];
}
