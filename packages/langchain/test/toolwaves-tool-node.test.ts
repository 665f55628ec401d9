import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { END, MessagesAnnotation, Send, START, StateGraph } from '@langchain/langgraph';
import { Dispatcher } from '@toolwaves/executor-rx';
import {
  driveEditTurn,
  EDIT_TURN_KEPT_APART,
  editTurnSchedule,
  gatedFsWorkspace,
  EDIT_TURN as TURN,
} from '@toolwaves/tools-fs/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LangChainAdapterError, ToolwavesToolNode, toLangChainTools } from '../src/index.js';

/**
 * A graph built by hand: the fake model, then the tool node, then the model again. The tool node
 * gets the whole AIMessage (`ToolNode`'s `Promise.all` over its calls), or each call as its own
 * `Send` task.
 */
async function graphOnWorkspace(routing: 'message' | 'send') {
  const workspace = await gatedFsWorkspace({
    dispatcher: (settings) => new Dispatcher({ ...settings, mode: 'eager' }),
  });
  onTestFinished(workspace.remove);
  const model = fakeModel()
    .respondWithTools(TURN.map((call) => ({ ...call, args: { ...call.args } })))
    .respond(new AIMessage('Done.'));
  const tools = new ToolwavesToolNode(toLangChainTools(workspace.registry), {
    dispatcher: workspace.dispatcher,
  });
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', tools)
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) => {
      const last = state.messages.at(-1);
      const calls = AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
      if (calls.length === 0) return END;
      if (routing === 'message') return 'tools';
      return calls.map((call) => new Send('tools', { ...state, lg_tool_call: call }));
    })
    .addEdge('tools', 'agent')
    .compile();
  return { ...workspace, model, graph };
}

describe('ToolwavesToolNode in a hand-built LangGraph graph (fake model, real fs tools)', () => {
  for (const routing of ['message', 'send'] as const) {
    it(`schedules the calls of one AIMessage as one turn (${routing === 'message' ? 'the whole message' : 'a Send per call'})`, async () => {
      const { graph, model, gates, read } = await graphOnWorkspace(routing);
      const run = graph.invoke({ messages: [new HumanMessage('Edit a.txt twice, read b and a.')] });

      const observed = await driveEditTurn(gates);
      await run;

      expect({ ...observed, ...editTurnSchedule(gates) }).toEqual(EDIT_TURN_KEPT_APART);
      expect(await read('a.txt')).toBe('gamma\n');
      const answers = (model.calls[1]?.messages ?? []).filter((message) =>
        ToolMessage.isInstance(message),
      );
      expect(answers.map((message) => message.tool_call_id)).toEqual(['e1', 'e2', 'rb', 'ra']);
      expect(String(answers[3]?.content)).toContain('gamma');
    });
  }

  it('names the option and the value when the dispatcher is missing', () => {
    expect(() => new ToolwavesToolNode([], { dispatcher: null as never })).toThrow(
      new LangChainAdapterError({
        code: 'invalid_options',
        message: 'Expected `dispatcher` to be a Dispatcher (with openTurn), got `null` (null)',
      }),
    );
  });

  it('refuses an unknown option, naming the one meant', () => {
    expect(
      () => new ToolwavesToolNode([], { dispatcher: {}, handleToolError: true } as never),
    ).toThrow(
      new LangChainAdapterError({
        code: 'invalid_options',
        message:
          'Unknown option `handleToolError` in the options of ToolwavesToolNode; did you mean `handleToolErrors`? The options are `dispatcher`, `modelOrdering`, `name`, `tags`, `handleToolErrors`',
      }),
    );
  });
});
