import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulateEager } from '@toolwaves/planner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRegistry } from '../src/demo-registry.js';
import { demoLatencyMs } from '../src/latency-profile.js';
import { DEFAULT_TOKENS_PER_SECOND } from '../src/scripted-model.js';
import { scriptedSession } from '../src/scripted-session.js';
import { callTokens, textTokens } from '../src/turn-tokens.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolwaves-default-speed-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Most calls running at once in a schedule. */
function mostAtOnce(schedule: { startMs: readonly number[]; endMs: readonly number[] }): number {
  return Math.max(
    ...schedule.startMs.map(
      (start) =>
        schedule.startMs.filter((other, j) => other <= start && (schedule.endMs[j] ?? 0) > start)
          .length,
    ),
  );
}

describe('the default demo, simulated (no real time)', () => {
  it('runs calls side by side while the model writes: the default speed and latencies overlap', () => {
    // The demo's real declarations (fs tools and run_check), each call arriving when the scripted
    // model at its default speed has written it, lasting its injected latency.
    const registry = demoRegistry({ root, latency: 0 });
    const msPerToken = 1000 / DEFAULT_TOKENS_PER_SECOND;
    const overlaps = scriptedSession('.').map((turn, t) => {
      const calls = turn.calls.map((call, i) => ({ ...call, id: `call_${t + 1}_${i + 1}` }));
      let writtenAt = textTokens(turn.text) * msPerToken;
      const arrivalMs = calls.map((call) => {
        writtenAt += callTokens(call) * msPerToken;
        return writtenAt;
      });
      const nodes = registry
        .toPlanNodes(calls)
        .map((node, i) => ({ ...node, estimateMs: demoLatencyMs(calls[i]!.name, 1) }));
      return mostAtOnce(simulateEager(nodes, { arrivalMs, maxConcurrency: 8 }));
    });
    // Turn 1: the glob (300 ms) and the grep (400 ms) are still running when the reads arrive,
    // about 0.1 s apart. Turn 3 edits one file twice and reads what it wrote: one at a time.
    expect(overlaps[0]).toBeGreaterThanOrEqual(3);
    expect(overlaps[2]).toBe(1);
    expect(overlaps.filter((most) => most >= 2).length).toBeGreaterThanOrEqual(3);
  });
});
