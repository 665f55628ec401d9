/** A duration for people: `1.23 s`, `123 ms`, `4.6 ms`, `0.82 ms`, `0 ms`, `–` for `null`. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms === 0 ? '0 ms' : `${ms.toFixed(ms >= 10 ? 0 : ms >= 1 ? 1 : 2)} ms`;
}

/** A ratio with two decimals (`1.07`), `–` for `null` or a non-finite value. */
export function formatRatio(ratio: number | null): string {
  return ratio === null || !Number.isFinite(ratio) ? '–' : ratio.toFixed(2);
}

/** A share as a percentage with one decimal (`12.5 %`), `–` for `null`. */
export function formatPercent(share: number | null): string {
  return share === null || !Number.isFinite(share) ? '–' : `${(share * 100).toFixed(1)} %`;
}

/** A figure across seeds: its median, and `[min–max]` when the seeds disagree. */
export function formatSpread(
  spread: { readonly median: number; readonly min: number; readonly max: number } | null,
  format: (value: number) => string,
): string {
  if (spread === null) return '–';
  const [median, min, max] = [format(spread.median), format(spread.min), format(spread.max)];
  return min === max ? median : `${median} [${min}–${max}]`;
}
