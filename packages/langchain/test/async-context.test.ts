import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, Send, START, StateGraph } from '@langchain/langgraph';
import {
  probeRegistry,
  WAITING_CALL_SCENARIOS,
  type WaitingCallScenario,
} from '@toolwaves/core/testing';
import { Dispatcher } from '@toolwaves/executor-rx';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { ToolwavesToolNode, toolwavesMiddleware } from '../src/index.js';
import {
  type ContextReading,
  callingModel,
  callScope,
  ProbeTool,
  probeCalls,
  requestScope,
  toolAnswers,
} from './context-probe.js';

function dispatcherFor(scenario: WaitingCallScenario): Dispatcher {
  const registry = probeRegistry(scenario);
  return new Dispatcher({ registry, mode: 'eager', maxConcurrency: scenario.cap });
}

/** A platform's middleware that keeps a per-call value in the async context (a logger's). */
const perCallScope = createMiddleware({
  name: 'PerCallScope',
  wrapToolCall: (request, handler) =>
    callScope.run(request.toolCall.id ?? '', () => handler(request)),
});

const prompt = { messages: [new HumanMessage('Probe ten files.')] };

/** Each run's answers: its own request value on every call, in the model's order. */
function expectedAnswers(run: string, calls: ReturnType<typeof probeCalls>) {
  return calls.map((call) => [call.id, 'success', `${run}:${call.args.path}`]);
}

describe('every tool runs in the async context of the run and the call that asked for it', () => {
  for (const version of ['v2', 'v1'] as const) {
    for (const scenario of WAITING_CALL_SCENARIOS) {
      it(`createAgent (${version}), ${scenario.name}: two runs of one agent, equal call ids`, async () => {
        const readings: ContextReading[] = [];
        const calls = probeCalls({ tool: 'probe', count: 10, path: scenario.path });
        const agent = createAgent({
          model: callingModel({ calls, runs: 2 }),
          tools: [new ProbeTool({ name: 'probe', readings })],
          middleware: [perCallScope, toolwavesMiddleware({ dispatcher: dispatcherFor(scenario) })],
          version,
        });
        const [a, b] = await Promise.all(
          ['A', 'B'].map((run) => requestScope.run(run, () => agent.invoke(prompt))),
        );

        expect(toolAnswers(a?.messages ?? [])).toEqual(expectedAnswers('A', calls));
        expect(toolAnswers(b?.messages ?? [])).toEqual(expectedAnswers('B', calls));
        expect(readings).toHaveLength(20);
        for (const reading of readings) {
          expect(reading.call).toBe(reading.callId);
          // a `Send` per call: LangGraph's own task context is the call's
          if (version === 'v2') expect(reading.taskCall).toBe(reading.callId);
        }
      });
    }
  }

  for (const routing of ['send', 'message'] as const) {
    for (const scenario of WAITING_CALL_SCENARIOS) {
      it(`ToolwavesToolNode (${routing === 'send' ? 'a Send per call' : 'the whole message'}), ${scenario.name}: two runs of one graph`, async () => {
        const readings: ContextReading[] = [];
        const calls = probeCalls({ tool: 'probe', count: 10, path: scenario.path });
        const model = callingModel({ calls, runs: 2, messageId: 'm1' });
        const graph = new StateGraph(MessagesAnnotation)
          .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
          .addNode(
            'tools',
            new ToolwavesToolNode([new ProbeTool({ name: 'probe', readings })], {
              dispatcher: dispatcherFor(scenario),
            }),
          )
          .addEdge(START, 'agent')
          .addConditionalEdges('agent', (state) => {
            const last = state.messages.at(-1);
            const asked = AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
            if (asked.length === 0) return END;
            if (routing === 'message') return 'tools';
            return asked.map((call) => new Send('tools', { ...state, lg_tool_call: call }));
          })
          .addEdge('tools', 'agent')
          .compile();
        const [a, b] = await Promise.all(
          ['A', 'B'].map((run) => requestScope.run(run, () => graph.invoke(prompt))),
        );

        expect(toolAnswers(a?.messages ?? [])).toEqual(expectedAnswers('A', calls));
        expect(toolAnswers(b?.messages ?? [])).toEqual(expectedAnswers('B', calls));
        expect(readings).toHaveLength(20);
        for (const reading of readings) {
          expect(reading.taskCall).toBe(routing === 'send' ? reading.callId : undefined);
        }
      });
    }
  }
});
