import type { GanttFigures } from '../bench-report.js';
import { escapeXml } from './escape-xml.js';
import { legend } from './legend.js';
import { seriesColor } from './series-color.js';
import { svgChart } from './svg-chart.js';

/** Options of {@link ganttChart}. */
export interface GanttChartOptions {
  /** `data-chart` attribute of the `<svg>`. */
  readonly id: string;
  readonly title: string;
  readonly gantt: GanttFigures;
  readonly formatMs?: (ms: number) => string;
  readonly width?: number;
}

/**
 * An inline SVG Gantt chart of one batch under each planner: one panel per planner
 * (`<g data-series="planner">`), a row per slot, a bar per call (`<rect data-call data-wave>`,
 * coloured by tool, numbered by call, with a `<title>` tooltip), dashed lines at wave ends,
 * one time axis shared by all panels. Pure: figures in, markup out.
 *
 * @example ganttChart({ id: 'gantt', title: 'One batch', gantt: report.gantt });
 */
export function ganttChart(options: GanttChartOptions): string {
  const { gantt } = options;
  const width = options.width ?? 760;
  const formatMs = options.formatMs ?? ((ms: number) => `${ms.toFixed(0)} ms`);
  const margin = { top: 36, right: 32, left: 96 };
  const laneHeight = 16;
  const panelGap = 26;
  const plotWidth = width - margin.left - margin.right;
  const horizon = Math.max(1e-9, ...gantt.planners.map((planner) => planner.makespanMs));
  const x = (ms: number): number => round(margin.left + (ms / horizon) * plotWidth);
  const tools = [
    ...new Set(gantt.planners.flatMap((planner) => planner.bars.map((bar) => toolOf(bar.label)))),
  ].sort();
  const colorOf = (label: string): string => seriesColor(tools.indexOf(toolOf(label)));
  const parts: string[] = [];
  let top = margin.top;
  for (const planner of gantt.planners) {
    // At least two rows, so the planner's name and figures fit beside its panel.
    const lanes = Math.max(2, ...planner.bars.map((bar) => bar.lane + 1));
    const panelHeight = lanes * laneHeight;
    parts.push(
      `<g data-series="${escapeXml(planner.planner)}">`,
      `<text x="${margin.left - 8}" y="${top + 12}" text-anchor="end" class="series-label">${escapeXml(planner.planner)}</text>`,
      `<text x="${margin.left - 8}" y="${top + 26}" text-anchor="end" class="tick">${escapeXml(`${formatMs(planner.makespanMs)}, ${planner.waves} w`)}</text>`,
      `<rect x="${margin.left}" y="${top}" width="${plotWidth}" height="${panelHeight}" class="panel"/>`,
    );
    const waveEnds = new Map<number, number>();
    for (const bar of planner.bars) {
      waveEnds.set(bar.wave, Math.max(waveEnds.get(bar.wave) ?? 0, bar.endMs));
      const left = x(bar.startMs);
      const barWidth = Math.max(1, x(bar.endMs) - left - 0.5);
      const y = top + bar.lane * laneHeight + 1;
      const tip = `#${bar.call} ${bar.label}: ${planner.waves === 0 ? '' : `wave ${bar.wave + 1}, `}${formatMs(bar.startMs)} → ${formatMs(bar.endMs)}`;
      parts.push(
        `<rect x="${left}" y="${y}" width="${round(barWidth)}" height="${laneHeight - 2}" fill="${colorOf(bar.label)}" data-call="${bar.call}" data-wave="${bar.wave}"><title>${escapeXml(tip)}</title></rect>`,
      );
      if (barWidth >= 16) {
        parts.push(
          `<text x="${round(left + 3)}" y="${y + laneHeight - 5}" class="bar-label">${bar.call}</text>`,
        );
      }
    }
    // Strategies without waves (waves: 0) get no wave lines.
    for (const end of planner.waves === 0 ? [] : waveEnds.values()) {
      parts.push(
        `<line x1="${x(end)}" x2="${x(end)}" y1="${top - 3}" y2="${top + panelHeight + 3}" class="wave-end"/>`,
      );
    }
    parts.push('</g>');
    top += panelHeight + panelGap;
  }
  const axisY = top - panelGap + 16;
  for (let tick = 0; tick <= 5; tick++) {
    const ms = (horizon * tick) / 5;
    parts.push(
      `<text x="${x(ms)}" y="${axisY}" text-anchor="middle" class="tick">${escapeXml(formatMs(ms))}</text>`,
    );
  }
  const legendY = axisY + 24;
  const itemWidth = 100;
  const perRow = Math.max(1, Math.floor(plotWidth / itemWidth));
  parts.push(legend({ names: tools, x: margin.left, y: legendY, itemWidth, perRow }));
  const height = legendY + 18 * (Math.ceil(tools.length / perRow) - 1) + 14;
  return svgChart({ id: options.id, title: options.title, width, height, body: parts });
}

/** The tool of a call label: its first word (`read_file`, or `#3` → the seed model's kind). */
function toolOf(label: string): string {
  const words = label.split(' ');
  return words[0]!.startsWith('#') ? (words[1] ?? 'call') : words[0]!;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
