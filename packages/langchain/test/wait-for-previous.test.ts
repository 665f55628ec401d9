import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import {
  driveWaitForPrevious,
  TopicGates,
  topicInput,
  WAIT_FOR_PREVIOUS_ORDER,
  WAIT_FOR_PREVIOUS_TURN,
  waitForPreviousRegistry,
} from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { toolwavesMiddleware } from '../src/index.js';

const toolsOf = (gates: TopicGates) => [
  tool(gates.run, { name: 'lookup', description: 'Looks a topic up', schema: topicInput }),
  tool(gates.run, { name: 'summarize', description: 'Sums up', schema: topicInput }),
];

/** Records the tools the agent binds to the model (the fake model keeps them to itself). */
function recordBinding(model: ReturnType<typeof fakeModel>): unknown[][] {
  const bound: unknown[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools) => {
    bound.push(tools);
    return bindTools(tools);
  };
  return bound;
}

/** The parameters of each tool of one binding, by name. */
const parametersOf = (tools: readonly unknown[]): Record<string, unknown> =>
  Object.fromEntries(
    tools.map((given) => {
      const { function: fn } = given as { function: { name: string; parameters: unknown } };
      return [fn.name, fn.parameters];
    }),
  );

describe('toolwavesMiddleware — modelOrdering (createAgent, fake model)', () => {
  it.each(['v2', 'v1'] as const)(
    'a call the model marks wait_for_previous starts after the others end (%s)',
    async (version) => {
      const gates = new TopicGates();
      const dispatcher = new Dispatcher({
        registry: waitForPreviousRegistry(),
        mode: 'eager',
        modelOrdering: true,
      });
      const model = fakeModel()
        .respondWithTools(
          WAIT_FOR_PREVIOUS_TURN.map((call) => ({ ...call, args: { ...call.input } })),
        )
        .respond(new AIMessage('Done.'));
      const bindings = recordBinding(model);
      const agent = createAgent({
        model,
        tools: toolsOf(gates),
        middleware: [toolwavesMiddleware({ dispatcher })],
        version,
      });
      const run = agent.invoke({ messages: [new HumanMessage('Look up a and b, then sum up.')] });
      await driveWaitForPrevious(gates);
      await run;

      expect(gates.log).toEqual(WAIT_FOR_PREVIOUS_ORDER);
      expect(gates.inputs.c).toEqual({ topic: 'c' });
      expect(bindings.length).toBeGreaterThan(0);
      const bound = parametersOf(bindings[0]!);
      expect(Object.keys(bound).sort()).toEqual(['lookup', 'summarize']);
      for (const parameters of Object.values(bound)) {
        expect(parameters).toHaveProperty('properties.wait_for_previous.type', 'boolean');
      }
    },
  );
});
