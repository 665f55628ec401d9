import { escapeXml } from './report-blocks.js';

/** The Okabe–Ito palette: distinguishable with every common colour-vision deficiency. */
const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#D55E00',
  '#56B4E9',
  '#F0E442',
  '#000000',
];

/** Options of {@link groupedBarChart}: groups along the x axis, one value per group and series. */
export interface GroupedBarChartOptions {
  /** `data-chart` attribute of the `<svg>`. */
  readonly id: string;
  readonly title: string;
  readonly groups: readonly string[];
  /** `null`: no bar. */
  readonly series: readonly {
    readonly name: string;
    readonly values: readonly (number | null)[];
  }[];
  readonly yLabel: string;
  /** A dashed line at this value (e.g. 1 for ratios). */
  readonly referenceLine?: number;
  readonly format?: (value: number) => string;
}

/** An inline SVG grouped bar chart: `[data-series]` groups of `[data-group]` bars. */
export function groupedBarChart(options: GroupedBarChartOptions): string {
  // The legend: five series a row, under the group labels.
  const rows = Math.ceil(options.series.length / 5);
  const [width, height] = [760, 300 + 18 * rows];
  const margin = { top: 36, right: 16, bottom: 40 + 18 * rows, left: 56 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const format = options.format ?? ((value: number) => value.toFixed(2));
  const values = options.series.flatMap((series) =>
    series.values.filter((value): value is number => value !== null && Number.isFinite(value)),
  );
  const top = niceCeiling(Math.max(1e-9, options.referenceLine ?? 0, ...values));
  const y = (value: number): number =>
    margin.top + plotHeight - (Math.max(value, 0) / top) * plotHeight;
  const groupWidth = plotWidth / Math.max(1, options.groups.length);
  const barWidth = (groupWidth * 0.8) / Math.max(1, options.series.length);
  const line = (ly: number, kind: string) =>
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ly}" y2="${ly}" class="${kind}"/>`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" data-chart="${escapeXml(options.id)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(options.title)}">`,
    `<text x="${width / 2}" y="20" text-anchor="middle" class="chart-title">${escapeXml(options.title)}</text>`,
  ];
  for (let tick = 0; tick <= 4; tick++) {
    const value = (top * tick) / 4;
    parts.push(
      line(y(value), 'grid'),
      `<text x="${margin.left - 6}" y="${y(value) + 4}" text-anchor="end" class="tick">${escapeXml(format(value))}</text>`,
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
    parts.push(`<g data-series="${escapeXml(series.name)}" ${color(s)}>`);
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
  if (options.referenceLine !== undefined) parts.push(line(y(options.referenceLine), 'reference'));
  const legend = options.series.map(({ name }, index) => {
    const left = margin.left + (index % 5) * 140;
    const ly = height - 18 * (rows - Math.floor(index / 5)) + 4;
    return `<g data-legend="${escapeXml(name)}"><rect x="${left}" y="${ly - 10}" width="12" height="12" ${color(index)}/><text x="${left + 16}" y="${ly}" class="tick">${escapeXml(name)}</text></g>`;
  });
  parts.push(`<g class="legend">${legend.join('')}</g>`, '</svg>');
  return parts.join('\n');
}

/** Fill of the `index`-th series: past the palette's eight, its colours again, lighter. */
const color = (index: number): string =>
  `fill="${PALETTE[index % PALETTE.length]}"${index < PALETTE.length ? '' : ' fill-opacity="0.45"'}`;

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
