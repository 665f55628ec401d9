import { escapeXml } from './escape-xml.js';
import { seriesColor } from './series-color.js';

/** Options of {@link legend}. */
export interface LegendOptions {
  /** Series names, in series order (colours follow {@link seriesColor}). */
  readonly names: readonly string[];
  /** Where the first item's swatch starts. */
  readonly x: number;
  readonly y: number;
  /** Colour of each name, when not the series colours. */
  readonly colors?: readonly string[];
  /** Horizontal room per item (default 130). */
  readonly itemWidth?: number;
  /** Items per row before wrapping to a new row 18 px lower (default: no wrapping). */
  readonly perRow?: number;
}

/**
 * An SVG legend: rows of colour swatches with names, each item marked `data-legend` (never
 * `data-series`, so series counts are not disturbed).
 *
 * @example legend({ names: ['greedy', 'ordered'], x: 56, y: 320 });
 */
export function legend(options: LegendOptions): string {
  const itemWidth = options.itemWidth ?? 130;
  const perRow = options.perRow ?? Number.POSITIVE_INFINITY;
  const items = options.names.map((name, index) => {
    const left = options.x + (index % perRow) * itemWidth;
    const y = options.y + Math.floor(index / perRow) * 18;
    const color = options.colors?.[index] ?? seriesColor(index);
    return `<g data-legend="${escapeXml(name)}"><rect x="${left}" y="${y - 10}" width="12" height="12" fill="${color}"/><text x="${left + 16}" y="${y}" class="tick">${escapeXml(name)}</text></g>`;
  });
  return `<g class="legend">${items.join('')}</g>`;
}
