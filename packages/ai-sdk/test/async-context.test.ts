import { probeRegistry, WAITING_CALL_SCENARIOS } from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { generateText, type StopCondition } from 'ai';
import { describe, expect, it } from 'vitest';
import { withToolwaves } from '../src/index.js';
import {
  type ContextReading,
  callingModel,
  probeTool,
  requestScope,
  withCallScope,
} from './context-probe.js';
import { toolResultsIn } from './fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: a stop condition for any tool set
const twoSteps: StopCondition<any> = ({ steps }) => steps.length >= 2;

describe('every tool runs in the async context of the run and the call that asked for it', () => {
  for (const scenario of WAITING_CALL_SCENARIOS) {
    it(`${scenario.name}: two generateText runs of one tool set, equal call ids`, async () => {
      const registry = probeRegistry(scenario);
      const dispatcher = new Dispatcher({ registry, mode: 'eager', maxConcurrency: scenario.cap });
      const calls = Array.from({ length: 10 }, (_, i) => ({
        id: `c${i}`,
        name: 'probe',
        input: { path: scenario.path(i) },
      }));
      const readings: ContextReading[] = [];
      const model = callingModel(calls);
      // the platform's per-call wrapper outside, toolwaves inside: as a user composes them
      const tools = withCallScope(withToolwaves({ probe: probeTool(readings) }, { dispatcher }));
      const results = await Promise.all(
        ['A', 'B'].map((run) =>
          requestScope.run(run, () =>
            generateText({ model, tools, stopWhen: twoSteps, prompt: 'Probe.' }),
          ),
        ),
      );

      expect(results.map((result) => result.text)).toEqual(['Done.', 'Done.']);
      for (const [i, run] of ['A', 'B'].entries()) {
        const answers = results[i]?.steps[0]?.toolResults ?? [];
        expect(answers.map((answer) => [answer.toolCallId, answer.output])).toEqual(
          calls.map((call) => [call.id, `${run}:${call.input.path}`]),
        );
      }
      expect(model.doGenerateCalls).toHaveLength(4);
      expect(toolResultsIn(model.doGenerateCalls[2]!.prompt)[0]).toHaveLength(10);
      expect(readings).toHaveLength(20);
      for (const reading of readings) expect(reading.call).toBe(reading.toolCallId);
    });
  }
});
