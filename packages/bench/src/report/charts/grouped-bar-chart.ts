import { escapeXml } from './escape-xml.js';
import { legend } from './legend.js';
import { seriesColor } from './series-color.js';
import { svgChart } from './svg-chart.js';

/** One series of a {@link groupedBarChart}: a value per group (`null`: no bar). */
export interface BarSeries {
  readonly name: string;
  readonly values: readonly (number | null)[];
}

/** Options of {@link groupedBarChart}. */
export interface GroupedBarChartOptions {
  /** `data-chart` attribute of the `<svg>`, for finding the chart. */
  readonly id: string;
  readonly title: string;
  /** Names of the groups along the x axis. */
  readonly groups: readonly string[];
  readonly series: readonly BarSeries[];
  readonly yLabel: string;
  /** Draw a dashed reference line at this value (e.g. 1 for ratios). */
  readonly referenceLine?: number;
  /** The axis starts here (default 0). */
  readonly yMin?: number;
  readonly format?: (value: number) => string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * An inline SVG grouped bar chart: one group per x value, one bar per series in each. Every
 * series is a `<g data-series="name">` whose bars are `<rect data-group data-value>` with a
 * `<title>` tooltip; the legend is marked `data-legend`, so counting `[data-series]` counts
 * series. Pure: options in, markup out.
 *
 * @example
 * groupedBarChart({ id: 'ratio', title: 'Makespan ÷ lower bound', groups: ['explore'],
 *   series: [{ name: 'greedy', values: [1.1] }], yLabel: 'ratio', referenceLine: 1 });
 */
export function groupedBarChart(options: GroupedBarChartOptions): string {
  const width = options.width ?? 760;
  const height = options.height ?? 340;
  const margin = { top: 36, right: 16, bottom: 64, left: 56 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const format = options.format ?? ((value: number) => value.toFixed(2));
  const values = options.series.flatMap((series) =>
    series.values.filter((value): value is number => value !== null && Number.isFinite(value)),
  );
  const yMin = options.yMin ?? 0;
  const top = niceCeiling(Math.max(yMin + 1e-9, options.referenceLine ?? yMin, ...values));
  const y = (value: number): number =>
    margin.top + plotHeight - ((Math.max(value, yMin) - yMin) / (top - yMin)) * plotHeight;
  const groupWidth = plotWidth / Math.max(1, options.groups.length);
  const barWidth = (groupWidth * 0.8) / Math.max(1, options.series.length);
  const parts: string[] = [];
  for (let tick = 0; tick <= 4; tick++) {
    const value = yMin + ((top - yMin) * tick) / 4;
    const ty = y(value);
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ty}" y2="${ty}" class="grid"/>`,
      `<text x="${margin.left - 6}" y="${ty + 4}" text-anchor="end" class="tick">${escapeXml(format(value))}</text>`,
    );
  }
  parts.push(
    `<text transform="translate(14 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" class="axis-label">${escapeXml(options.yLabel)}</text>`,
  );
  options.groups.forEach((group, g) => {
    const x = margin.left + groupWidth * (g + 0.5);
    parts.push(
      `<text x="${x}" y="${margin.top + plotHeight + 16}" text-anchor="middle" class="tick">${escapeXml(group)}</text>`,
    );
  });
  options.series.forEach((series, s) => {
    parts.push(`<g data-series="${escapeXml(series.name)}" fill="${seriesColor(s)}">`);
    series.values.forEach((value, g) => {
      if (value === null || !Number.isFinite(value)) return;
      const x = margin.left + groupWidth * g + groupWidth * 0.1 + barWidth * s;
      const barTop = y(value);
      const barHeight = Math.max(0.5, margin.top + plotHeight - barTop);
      parts.push(
        `<rect x="${round(x)}" y="${round(barTop)}" width="${round(barWidth * 0.92)}" height="${round(barHeight)}" data-group="${escapeXml(options.groups[g] ?? '')}" data-value="${value}"><title>${escapeXml(`${series.name} on ${options.groups[g] ?? ''}: ${format(value)}`)}</title></rect>`,
      );
    });
    parts.push('</g>');
  });
  if (options.referenceLine !== undefined) {
    const ry = y(options.referenceLine);
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ry}" y2="${ry}" class="reference"/>`,
    );
  }
  parts.push(
    legend({ names: options.series.map((series) => series.name), x: margin.left, y: height - 22 }),
  );
  return svgChart({ id: options.id, title: options.title, width, height, body: parts });
}

/** The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k) at or above `value`. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) {
    if (step * power >= value - 1e-12) return step * power;
  }
  return 10 * power;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
