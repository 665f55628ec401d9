import { escapeXml } from './escape-xml.js';

/** Options of {@link svgChart}. */
export interface SvgChartOptions {
  /** `data-chart` attribute of the `<svg>`, for finding the chart. */
  readonly id: string;
  /** Centred at the top, and the chart's accessible label. */
  readonly title: string;
  readonly width: number;
  readonly height: number;
  /** The chart's markup, one element a line. */
  readonly body: readonly string[];
}

/**
 * The `<svg>` element every bench chart is drawn in: sized, marked `data-chart`, labelled for
 * screen readers, with the title centred at the top, then `body`. Pure: options in, markup out.
 *
 * @example svgChart({ id: 'ratio', title: 'Makespan ÷ lower bound', width: 760, height: 340, body: [] });
 * @see groupedBarChart
 */
export function svgChart(options: SvgChartOptions): string {
  const { width, height } = options;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" data-chart="${escapeXml(options.id)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(options.title)}">`,
    `<text x="${width / 2}" y="20" text-anchor="middle" class="chart-title">${escapeXml(options.title)}</text>`,
    ...options.body,
    '</svg>',
  ].join('\n');
}
