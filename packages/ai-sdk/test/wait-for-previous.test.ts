import {
  driveWaitForPrevious,
  TopicGates,
  topicInput,
  WAIT_FOR_PREVIOUS_ORDER,
  WAIT_FOR_PREVIOUS_TURN,
  waitForPreviousRegistry,
} from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { generateText, type StopCondition, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { withToolwaves } from '../src/index.js';
import { callsStep, textStep } from './fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: a stop condition for any tool set
const twoSteps: StopCondition<any> = ({ steps }) => steps.length >= 2;

const toolsOf = (gates: TopicGates) => ({
  lookup: tool({ description: 'Looks a topic up', inputSchema: topicInput, execute: gates.run }),
  summarize: tool({ description: 'Sums up', inputSchema: topicInput, execute: gates.run }),
});

describe('withToolwaves — modelOrdering (generateText, mock model)', () => {
  it('a call the model marks wait_for_previous starts after the others end', async () => {
    const gates = new TopicGates();
    const dispatcher = new Dispatcher({
      registry: waitForPreviousRegistry(),
      mode: 'eager',
      modelOrdering: true,
    });
    const model = new MockLanguageModelV3({
      doGenerate: [callsStep(WAIT_FOR_PREVIOUS_TURN), textStep('Done.')],
    });
    const run = generateText({
      model,
      tools: withToolwaves(toolsOf(gates), { dispatcher }),
      stopWhen: twoSteps,
      prompt: 'Look up a and b, then sum up.',
    });
    await driveWaitForPrevious(gates);
    expect((await run).text).toBe('Done.');

    expect(gates.log).toEqual(WAIT_FOR_PREVIOUS_ORDER);
    // The tool never sees the field; the model was offered it on every tool.
    expect(gates.inputs.c).toEqual({ topic: 'c' });
    const offered = model.doGenerateCalls[0]!.tools ?? [];
    for (const given of offered) {
      const schema = (given as { inputSchema: { properties: Record<string, unknown> } })
        .inputSchema;
      expect(schema.properties).toHaveProperty('wait_for_previous.type', 'boolean');
    }
    expect(offered).toHaveLength(2);
  });

  it("is off unless asked: the schemas stay the tools' own", async () => {
    const gates = new TopicGates();
    const dispatcher = new Dispatcher({ registry: waitForPreviousRegistry(), mode: 'eager' });
    const model = new MockLanguageModelV3({ doGenerate: [textStep('Nothing to do.')] });
    await generateText({
      model,
      tools: withToolwaves(toolsOf(gates), { dispatcher }),
      prompt: 'Hi',
    });
    const offered = model.doGenerateCalls[0]!.tools ?? [];
    for (const given of offered) {
      const schema = (given as { inputSchema: { properties: Record<string, unknown> } })
        .inputSchema;
      expect(schema.properties).not.toHaveProperty('wait_for_previous');
    }
  });
});
