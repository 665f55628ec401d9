import { Agent, Runner, tool } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import {
  driveWaitForPrevious,
  TopicGates,
  topicInput,
  WAIT_FOR_PREVIOUS_ORDER,
  WAIT_FOR_PREVIOUS_TURN,
  waitForPreviousRegistry,
} from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { describe, expect, it } from 'vitest';
import { withToolwaves } from '../src/index.js';

const runner = new Runner({ tracingDisabled: true });

const toolsOf = (gates: TopicGates) => [
  tool({
    name: 'lookup',
    description: 'Looks a topic up',
    parameters: topicInput,
    execute: gates.run,
  }),
  tool({ name: 'summarize', description: 'Sums up', parameters: topicInput, execute: gates.run }),
];

describe('withToolwaves — modelOrdering (Runner, scripted model)', () => {
  it('a call the model marks wait_for_previous starts after the others end', async () => {
    const gates = new TopicGates();
    const dispatcher = new Dispatcher({
      registry: waitForPreviousRegistry(),
      mode: 'eager',
      modelOrdering: true,
    });
    // A strict schema has every field: the model sends `null` where it does not mean it.
    const model = new ScriptedModel([
      WAIT_FOR_PREVIOUS_TURN.map((call) =>
        functionCall(call.name, { wait_for_previous: null, ...call.input }, { callId: call.id }),
      ),
      [assistantMessage('Done.')],
    ]);
    const agent = withToolwaves(
      new Agent({
        name: 'Researcher',
        instructions: 'Look up, then sum up.',
        model,
        tools: toolsOf(gates),
      }),
      { dispatcher },
    );
    const run = runner.run(agent, 'Look up a and b, then sum up.');
    await driveWaitForPrevious(gates);
    expect((await run).finalOutput).toBe('Done.');

    expect(gates.log).toEqual(WAIT_FOR_PREVIOUS_ORDER);
    expect(gates.inputs.c).toEqual({ topic: 'c' });
    const offered = (model.calls[0]?.request.tools ?? []) as {
      name?: string;
      parameters?: { properties?: Record<string, unknown>; required?: string[] };
    }[];
    expect(offered.map((given) => given.name).sort()).toEqual(['lookup', 'summarize']);
    for (const given of offered) {
      expect(given.parameters?.properties).toHaveProperty('wait_for_previous.type', [
        'boolean',
        'null',
      ]);
      expect(given.parameters?.required).toEqual(['topic', 'wait_for_previous']);
    }
  });
});
