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

/**
 * The colour of the `index`-th series of a chart (cycles after 8).
 *
 * @example seriesColor(0); // '#0072B2'
 */
export function seriesColor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}
