import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import {
  END,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { declareTool, ToolRegistry, type TurnSource } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import {
  type AgentMiddleware,
  createAgent,
  createMiddleware,
  toolRetryMiddleware,
} from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolwavesToolNode, toolwavesMiddleware } from '../src/index.js';
import { callingModel, requestScope, toolAnswers, until } from './context-probe.js';

const registry = new ToolRegistry()
  .add(declareTool({ name: 'flaky', concurrencySafe: true, resourceKey: 'flaky' }))
  .add(declareTool({ name: 'slow', concurrencySafe: true, resourceKey: 'slow' }));

/** A dispatcher that counts the turns opened through it. */
function countingDispatcher(): TurnSource & { readonly opened: () => number } {
  const dispatcher = new Dispatcher({ registry, mode: 'eager' });
  let opened = 0;
  return {
    // The turn's options are the adapter's (it starts every call as the rules allow): passed on.
    openTurn: (options) => {
      opened += 1;
      return dispatcher.openTurn(options);
    },
    opened: () => opened,
  };
}

const schema = z.object({ path: z.string() });

/**
 * `flaky` throws on its first call; `slow` holds its first call until the test lets it go.
 * The node does not handle tool errors, so `flaky`'s error fails the attempt and LangGraph's
 * retry policy runs the node again while the first `slow` still runs.
 */
function flakyAndSlow() {
  const log: string[] = [];
  const calls = { flaky: 0, slow: 0 };
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const flaky = tool(
    async () => {
      calls.flaky += 1;
      const attempt = calls.flaky;
      log.push(`flaky#${attempt} start`);
      if (attempt === 1) throw new Error('flaky failed');
      return 'flaky ok';
    },
    { name: 'flaky', description: 'Fails once', schema },
  );
  const slow = tool(
    async () => {
      calls.slow += 1;
      const attempt = calls.slow;
      log.push(`slow#${attempt} start`);
      await released;
      log.push(`slow#${attempt} end`);
      return 'slow ok';
    },
    { name: 'slow', description: 'Waits', schema },
  );
  return { tools: [flaky, slow], log, calls, release };
}

describe('a node retried while a sibling call still runs', () => {
  const message = new AIMessage({
    id: 'm1',
    content: '',
    tool_calls: [
      { id: 'c1', name: 'flaky', args: { path: 'a' } },
      { id: 'c2', name: 'slow', args: { path: 'b' } },
    ],
  });

  function graphOf(node: ToolNode, routing: 'message' | 'send') {
    return new StateGraph(MessagesAnnotation)
      .addNode('tools', node, {
        retryPolicy: { maxAttempts: 3, initialInterval: 0, jitter: false, logWarning: false },
      })
      .addConditionalEdges(START, (state) =>
        routing === 'message'
          ? 'tools'
          : (message.tool_calls ?? []).map(
              (call) => new Send('tools', { ...state, lg_tool_call: call }),
            ),
      )
      .addEdge('tools', END)
      .compile();
  }

  for (const routing of ['message', 'send'] as const) {
    it(`retries and answers both calls as ToolNode does, the retry after the sibling (${routing})`, async () => {
      const input = { messages: [new HumanMessage('Go.'), message] };

      const reference = flakyAndSlow();
      const plainRun = graphOf(
        new ToolNode(reference.tools, { handleToolErrors: false }),
        routing,
      ).invoke(input);
      await until(() => reference.calls.flaky === 2);
      reference.release();
      const plain = await plainRun;

      const scheduled = flakyAndSlow();
      const dispatcher = countingDispatcher();
      const node = new ToolwavesToolNode(scheduled.tools, { dispatcher, handleToolErrors: false });
      const run = graphOf(node, routing).invoke(input);
      await until(() => dispatcher.opened() === 2); // the retry has asked for its calls
      expect(scheduled.log).toEqual(['flaky#1 start', 'slow#1 start']); // ... and waits
      scheduled.release();
      const ours = await run;

      expect(toolAnswers(ours.messages)).toEqual(toolAnswers(plain.messages));
      expect(toolAnswers(ours.messages).sort()).toEqual([
        ['c1', 'success', 'flaky ok'],
        ['c2', 'success', 'slow ok'],
      ]);
      // the retry's calls started once the first attempt's `slow` had ended
      const retried = scheduled.log.indexOf('flaky#2 start');
      expect(retried).toBeGreaterThan(scheduled.log.indexOf('slow#1 end'));
    });
  }
});

describe("createAgent's tool retry middleware around toolwaves", () => {
  it("a retried call is answered as without toolwaves, once its attempt's sibling settled", async () => {
    const passThrough = createMiddleware({
      name: 'PassThrough',
      wrapToolCall: (request, handler) => handler(request),
    });
    const calls = [
      { id: 'c1', name: 'flaky', args: { path: 'a' } },
      { id: 'c2', name: 'slow', args: { path: 'b' } },
    ];
    const retried = async (inner: AgentMiddleware, opened: () => number) => {
      const tools = flakyAndSlow();
      const agent = createAgent({
        model: callingModel({ calls, runs: 1 }),
        tools: tools.tools,
        middleware: [
          // its zod 3 state schema does not fit `exactOptionalPropertyTypes`: the type only
          toolRetryMiddleware({
            maxRetries: 1,
            initialDelayMs: 0,
            jitter: false,
          }) as unknown as AgentMiddleware,
          inner,
        ],
      });
      const run = agent.invoke({ messages: [new HumanMessage('Go.')] });
      await until(() => tools.calls.flaky === 2 || opened() === 2);
      const log = [...tools.log];
      tools.release();
      return { answers: toolAnswers((await run).messages), log, after: tools.log };
    };
    const plain = await retried(passThrough, () => 0);
    const dispatcher = countingDispatcher();
    const ours = await retried(toolwavesMiddleware({ dispatcher }), dispatcher.opened);

    expect(plain.answers).toEqual([
      ['c1', 'success', 'flaky ok'],
      ['c2', 'success', 'slow ok'],
    ]);
    expect(ours.answers).toEqual(plain.answers);
    // the retry had asked for its call and waited while the first attempt's `slow` ran
    expect(ours.log).toEqual(['flaky#1 start', 'slow#1 start']);
    expect(ours.after.indexOf('flaky#2 start')).toBeGreaterThan(ours.after.indexOf('slow#1 end'));
  });
});

describe('two runs through one node, forked from one checkpoint (equal message and call ids)', () => {
  it('answers each run with its own results, never "Duplicate tool call id"', async () => {
    const started: string[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const echo = tool(
      async ({ path }) => {
        started.push(`${requestScope.getStore()}:${path}`);
        if (started.length === 4) release(); // both runs' calls are running at once
        await released;
        return `${requestScope.getStore()}:${path}`;
      },
      { name: 'echo', description: 'Echoes', schema },
    );
    const calls = [
      { id: 'c1', name: 'echo', args: { path: 'a' } },
      { id: 'c2', name: 'echo', args: { path: 'b' } },
    ];
    const model = callingModel({ calls, runs: 3, messageId: 'm1' });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(declareTool({ name: 'echo', concurrencySafe: true })),
      mode: 'eager',
    });
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addNode('tools', new ToolwavesToolNode([echo], { dispatcher }))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', (state) => {
        const last = state.messages.at(-1);
        return AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
      })
      .addEdge('tools', 'agent')
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['tools'] });
    const thread = { configurable: { thread_id: 't1' } };
    await graph.invoke({ messages: [new HumanMessage('Echo a and b.')] }, thread);
    const { config: checkpoint } = await graph.getState(thread);

    // both runs resume the same checkpoint: the same AIMessage `m1`, calls `c1` and `c2`
    const runs = ['A', 'B'].map((name) =>
      requestScope.run(name, () => graph.invoke(null, checkpoint)),
    );
    // a run refused its calls would end without them: let the other finish then
    void Promise.race(runs).then(release, release);
    const [a, b] = (await Promise.all(runs)) as { messages: BaseMessage[] }[];

    expect(toolAnswers(a?.messages ?? [])).toEqual([
      ['c1', 'success', 'A:a'],
      ['c2', 'success', 'A:b'],
    ]);
    expect(toolAnswers(b?.messages ?? [])).toEqual([
      ['c1', 'success', 'B:a'],
      ['c2', 'success', 'B:b'],
    ]);
  });
});

describe('two calls with one id in one message (a deliberate difference from ToolNode)', () => {
  it('runs both, the second once the first has settled, and answers both', async () => {
    const log: string[] = [];
    const echo = tool(
      async ({ path }) => {
        log.push(`start ${path}`);
        await new Promise<void>((resolve) => setImmediate(resolve));
        log.push(`end ${path}`);
        return `echo ${path}`;
      },
      { name: 'echo', description: 'Echoes', schema },
    );
    const twice = new AIMessage({
      content: '',
      tool_calls: [
        { id: 'c1', name: 'echo', args: { path: 'a' } },
        { id: 'c1', name: 'echo', args: { path: 'b' } },
      ],
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(declareTool({ name: 'echo', concurrencySafe: true })),
      mode: 'eager',
    });
    const ours = await new ToolwavesToolNode([echo], { dispatcher }).invoke({ messages: [twice] });
    const plain = await new ToolNode([echo]).invoke({ messages: [twice] });

    expect(toolAnswers(ours.messages)).toEqual(toolAnswers(plain.messages));
    expect(toolAnswers(ours.messages)).toEqual([
      ['c1', 'success', 'echo a'],
      ['c1', 'success', 'echo b'],
    ]);
    // ours first (one after the other), then ToolNode's (both at once)
    expect(log).toEqual([
      'start a',
      'end a',
      'start b',
      'end b',
      'start a',
      'start b',
      'end a',
      'end b',
    ]);
  });
});
