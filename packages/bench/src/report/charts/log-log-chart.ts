import { escapeXml } from './escape-xml.js';
import { legend } from './legend.js';
import { seriesColor } from './series-color.js';
import { svgChart } from './svg-chart.js';

/** One line of a {@link logLogChart}: points with positive coordinates; `null` y breaks the line. */
export interface LineSeries {
  readonly name: string;
  readonly points: readonly { readonly x: number; readonly y: number | null }[];
}

/** Options of {@link logLogChart}. */
export interface LogLogChartOptions {
  /** `data-chart` attribute of the `<svg>`. */
  readonly id: string;
  readonly title: string;
  readonly series: readonly LineSeries[];
  readonly xLabel: string;
  readonly yLabel: string;
  readonly formatX?: (value: number) => string;
  readonly formatY?: (value: number) => string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * An inline SVG line chart with logarithmic axes (decade ticks). Each series is a
 * `<g data-series="name">` holding a `<path>` and one `<circle data-x data-y>` per point,
 * with `<title>` tooltips. Pure: options in, markup out.
 *
 * @example
 * logLogChart({ id: 'scaling', title: 'Planning time', xLabel: 'calls', yLabel: 'ms',
 *   series: [{ name: 'greedy', points: [{ x: 10, y: 0.01 }, { x: 100, y: 0.1 }] }] });
 */
export function logLogChart(options: LogLogChartOptions): string {
  const width = options.width ?? 760;
  const height = options.height ?? 360;
  const margin = { top: 36, right: 24, bottom: 72, left: 72 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const formatX = options.formatX ?? ((value: number) => String(value));
  const formatY = options.formatY ?? ((value: number) => String(value));
  const points = options.series.flatMap((series) => series.points);
  const xs = points.map((point) => point.x).filter((x) => x > 0);
  const ys = points.map((point) => point.y).filter((y): y is number => y !== null && y > 0);
  const [x0, x1] = decades(xs);
  const [y0, y1] = decades(ys);
  const px = (x: number): number =>
    margin.left + ((Math.log10(x) - x0) / Math.max(1e-9, x1 - x0)) * plotWidth;
  const py = (y: number): number =>
    margin.top + plotHeight - ((Math.log10(y) - y0) / Math.max(1e-9, y1 - y0)) * plotHeight;
  const parts: string[] = [];
  for (let e = x0; e <= x1; e++) {
    const tx = round(px(10 ** e));
    parts.push(
      `<line x1="${tx}" x2="${tx}" y1="${margin.top}" y2="${margin.top + plotHeight}" class="grid"/>`,
      `<text x="${tx}" y="${margin.top + plotHeight + 16}" text-anchor="middle" class="tick">${escapeXml(formatX(10 ** e))}</text>`,
    );
  }
  for (let e = y0; e <= y1; e++) {
    const ty = round(py(10 ** e));
    parts.push(
      `<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${ty}" y2="${ty}" class="grid"/>`,
      `<text x="${margin.left - 6}" y="${ty + 4}" text-anchor="end" class="tick">${escapeXml(formatY(10 ** e))}</text>`,
    );
  }
  parts.push(
    `<text x="${margin.left + plotWidth / 2}" y="${margin.top + plotHeight + 36}" text-anchor="middle" class="axis-label">${escapeXml(options.xLabel)}</text>`,
    `<text transform="translate(16 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" class="axis-label">${escapeXml(options.yLabel)}</text>`,
  );
  options.series.forEach((series, s) => {
    const color = seriesColor(s);
    let path = '';
    let pen = false;
    const dots: string[] = [];
    for (const point of series.points) {
      if (point.y === null || point.y <= 0 || point.x <= 0) {
        pen = false;
        continue;
      }
      const x = round(px(point.x));
      const y = round(py(point.y));
      path += `${pen ? 'L' : 'M'}${x} ${y} `;
      pen = true;
      dots.push(
        `<circle cx="${x}" cy="${y}" r="3" fill="${color}" data-x="${point.x}" data-y="${point.y}"><title>${escapeXml(`${series.name}: ${formatY(point.y)} at ${formatX(point.x)}`)}</title></circle>`,
      );
    }
    parts.push(
      `<g data-series="${escapeXml(series.name)}"><path d="${path.trim()}" fill="none" stroke="${color}" stroke-width="2"/>${dots.join('')}</g>`,
    );
  });
  parts.push(
    legend({ names: options.series.map((series) => series.name), x: margin.left, y: height - 12 }),
  );
  return svgChart({ id: options.id, title: options.title, width, height, body: parts });
}

/** Whole decades (log10) around the values: `[floor(min), ceil(max)]`, at least one apart. */
function decades(values: readonly number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const low = Math.floor(Math.log10(Math.min(...values)));
  const high = Math.ceil(Math.log10(Math.max(...values)));
  return [low, Math.max(high, low + 1)];
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
