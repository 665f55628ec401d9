import { readFileSync } from 'node:fs';
import { keysOverlap } from '@toolwaves/planner';
import type { Marker } from './agent-config.js';

/** One tool run, from its `start` line to its `end` line in the log (line numbers). */
export interface ToolRun {
  readonly agent: string;
  readonly call: string;
  readonly tool: string;
  readonly access: Marker['access'];
  readonly token: number | null;
  readonly start: number;
  /** `Infinity` when the run never ended (its process was killed). */
  readonly end: number;
}

/** The runs recorded in the marker log, in the order they started. */
export function readRuns(log: string): ToolRun[] {
  const markers = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Marker);
  const runs: ToolRun[] = [];
  markers.forEach((marker, line) => {
    if (marker.phase !== 'start') return;
    const end = markers.findIndex(
      (m, i) => i > line && m.phase === 'end' && m.agent === marker.agent && m.call === marker.call,
    );
    const { agent, call, tool, access, token } = marker;
    runs.push({ agent, call, tool, access, token, start: line, end: end < 0 ? Infinity : end });
  });
  return runs;
}

/** Whether two runs conflict: an overlapping key (planner's `keysOverlap`) with a write. */
export function runsConflict(a: ToolRun, b: ToolRun): boolean {
  return a.access.some((x) =>
    b.access.some((y) => (x.mode === 'write' || y.mode === 'write') && keysOverlap(x.key, y.key)),
  );
}

/** Every pair of conflicting runs whose start–end intervals overlap in the log. */
export function overlappingConflicts(runs: readonly ToolRun[]): [ToolRun, ToolRun][] {
  const found: [ToolRun, ToolRun][] = [];
  for (let i = 0; i < runs.length; i += 1) {
    for (let j = i + 1; j < runs.length; j += 1) {
      const a = runs[i] as ToolRun;
      const b = runs[j] as ToolRun;
      if (a.start < b.end && b.start < a.end && runsConflict(a, b)) found.push([a, b]);
    }
  }
  return found;
}
