import { describe, expect, it } from 'vitest';
import type { BatchFigures, WorkloadFigures } from '../src/index.js';
import { pickGanttBatch } from '../src/report/pick-gantt-batch.js';

const batch = (size: number, makespans: Record<string, [number, number]>): BatchFigures => {
  const results = Object.entries(makespans).map(([strategy, [turnMs, waves]]) => ({
    strategy,
    turnMs,
    afterStreamMs: turnMs,
    conflictingOverlaps: 0,
    lostUpdates: 0,
    waves,
    proven: null,
    violations: 0,
  }));
  return {
    seed: 1,
    size,
    lowerBoundMs: 100,
    streamEndMs: 0,
    streamLowerBoundMs: 100,
    minimalWaves: null,
    batch: results,
    stream: results,
  };
};
const workload = (
  name: string,
  kind: 'tools' | 'seed-model',
  perBatch: BatchFigures[],
): WorkloadFigures => ({
  name,
  description: '',
  kind,
  batches: perBatch.length,
  calls: 0,
  estimates: { calls: 0, medianError: 0, p90Error: 0, unseen: 0 },
  batch: [],
  stream: [],
  perBatch,
});

describe('pickGanttBatch', () => {
  it('prefers the readable tool batch where greedy is furthest above the best plan', () => {
    const choice = pickGanttBatch({
      reference: 'greedy',
      workloads: [
        workload('a', 'tools', [
          batch(8, { greedy: [120, 3], optimal: [110, 3], sequential: [300, 8] }),
          batch(64, { greedy: [200, 3], optimal: [100, 3], sequential: [900, 64] }),
        ]),
        workload('b', 'tools', [
          batch(10, { greedy: [130, 3], optimal: [105, 3], sequential: [300, 10] }),
        ]),
        workload('s', 'seed-model', [
          batch(8, { greedy: [190, 3], optimal: [100, 3], sequential: [300, 8] }),
        ]),
      ],
    });
    expect(choice).toEqual({
      workload: 'b',
      batch: 0,
      why: 'greedy is furthest above the best plan on this batch (by 25.0 % of the lower bound)',
    });
  });

  it('falls back to where the packing planners differ most, ignoring one-call-per-wave plans', () => {
    const choice = pickGanttBatch({
      reference: 'greedy',
      workloads: [
        workload('a', 'tools', [
          batch(8, { greedy: [100, 2], ordered: [110, 3], sequential: [900, 8] }),
          batch(9, { greedy: [100, 2], ordered: [140, 4], sequential: [300, 9] }),
        ]),
      ],
    });
    expect(choice?.batch).toBe(1);
    expect(choice?.why).toBe(
      'the planners that pack calls together differ most on this batch (by 40.0 % of the lower bound)',
    );
  });

  it('takes seed-model batches when no tool batch is readable, any batch at last, none without batches', () => {
    const big = batch(64, { greedy: [100, 2] });
    expect(
      pickGanttBatch({
        workloads: [
          workload('t', 'tools', [big]),
          workload('s', 'seed-model', [batch(6, { greedy: [100, 2] })]),
        ],
      })?.workload,
    ).toBe('s');
    expect(pickGanttBatch({ workloads: [workload('t', 'tools', [big])] })?.workload).toBe('t');
    expect(pickGanttBatch({ workloads: [] })).toBeUndefined();
  });
});
