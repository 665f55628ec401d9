import { Agent, Runner, setTraceProcessors, setTracingDisabled } from '@openai/agents-core';
import { probeRegistry, WAITING_CALL_SCENARIOS } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withToolwaves } from '../src/index.js';
import {
  type ContextReading,
  callingModel,
  outputsSeenBy,
  probeTool,
  requestScope,
} from './agents-probe.js';

// The SDK's traces and spans live in the async context: on, with no processor (nothing exported).
beforeAll(() => {
  setTraceProcessors([]);
  setTracingDisabled(false);
});
afterAll(() => {
  setTracingDisabled(true);
});

describe('every function tool runs in the async context of the run and the call that asked for it', () => {
  for (const scenario of WAITING_CALL_SCENARIOS) {
    it(`${scenario.name}: two runs of one agent, equal call ids`, async () => {
      const registry = probeRegistry(scenario);
      const dispatcher = new Dispatcher({ registry, mode: 'eager', maxConcurrency: scenario.cap });
      const calls = Array.from({ length: 10 }, (_, i) => ({
        id: `c${i}`,
        name: 'probe',
        path: scenario.path(i),
        n: i,
      }));
      const readings: ContextReading[] = [];
      const model = callingModel({ calls, runs: 2 });
      const agent = withToolwaves(
        new Agent({ name: 'Prober', model, tools: [probeTool({ name: 'probe', readings })] }),
        { dispatcher },
      );
      const runner = new Runner({ tracingDisabled: false });
      const results = await Promise.all(
        ['A', 'B'].map((name) => requestScope.run(name, () => runner.run(agent, 'Probe.'))),
      );

      expect(results.map((result) => result.finalOutput)).toEqual(['Done.', 'Done.']);
      // each run's second model call got its own run's answers, in the model's order
      const answered = [outputsSeenBy(model, 2), outputsSeenBy(model, 3)].sort((x, y) =>
        String(x[0]?.[1]).localeCompare(String(y[0]?.[1])),
      );
      expect(answered).toEqual(
        ['A', 'B'].map((run) => calls.map((call) => [call.id, `${run}:${call.path}`])),
      );
      expect(readings).toHaveLength(20);
      const traces = new Map<string | undefined, string | undefined>();
      for (const reading of readings) {
        expect(JSON.parse(reading.spanInput ?? 'null')).toEqual({
          path: reading.path,
          n: reading.n,
        });
        expect(reading.traceId).toBeDefined();
        // one trace per run: a call that read another run's trace would map it twice
        if (traces.has(reading.traceId)) expect(traces.get(reading.traceId)).toBe(reading.request);
        traces.set(reading.traceId, reading.request);
      }
      expect(new Set(traces.values())).toEqual(new Set(['A', 'B']));
    });
  }
});
