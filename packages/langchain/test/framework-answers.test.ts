import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { StructuredTool, tool } from '@langchain/core/tools';
import {
  Command,
  END,
  interrupt,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { type AgentMiddleware, createAgent, createMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolwavesToolNode, toolwavesMiddleware } from '../src/index.js';
import { callingModel, toolAnswers, until } from './context-probe.js';

/** The registry declares nothing: each call runs alone, so the second waits for the first. */
const dispatcher = () => new Dispatcher({ registry: new ToolRegistry(), mode: 'eager' });
const schema = z.object({ path: z.string() });

/** Two `tool()` tools that hold until their signal aborts (as a `fetch` would). */
function heldTools() {
  const started: string[] = [];
  const held = (name: string) =>
    tool(
      async ({ path }) => {
        started.push(path);
        return new Promise<string>(() => undefined); // only the signal ends it
      },
      { name, description: 'Holds', schema },
    );
  return { tools: [held('first'), held('second')], started };
}

const calls = [
  { id: 'c1', name: 'first', args: { path: 'a' } },
  { id: 'c2', name: 'second', args: { path: 'b' } },
];
const message = new AIMessage({ id: 'm1', content: '', tool_calls: calls });
const reason = new Error('stopped by the user');

/**
 * Invokes the node alone on the message, aborts once `starts` calls run (`ToolNode`: both at
 * once; toolwaves: the first, the second waits for it); what it gave back.
 */
async function abortedInvoke(
  make: (tools: ReturnType<typeof heldTools>['tools']) => ToolNode,
  starts: number,
): Promise<{ readonly outcome: unknown; readonly started: string[] }> {
  const { tools, started } = heldTools();
  const stop = new AbortController();
  const run = make(tools).invoke({ messages: [message] }, { signal: stop.signal });
  await until(() => started.length === starts);
  stop.abort(reason);
  const outcome = await run.then(
    (value: { messages: ToolMessage[] }) => toolAnswers(value.messages),
    (error: unknown) => error,
  );
  return { outcome, started };
}

describe("aborts answered as the framework's own", () => {
  it('ToolwavesToolNode.invoke: each call an error ToolMessage, as ToolNode answers them', async () => {
    const plain = await abortedInvoke((tools) => new ToolNode(tools), 2);
    const ours = await abortedInvoke(
      (tools) => new ToolwavesToolNode(tools, { dispatcher: dispatcher() }),
      1,
    );
    const answer = 'Error: stopped by the user\n Please fix your mistakes.';
    expect(plain.outcome).toEqual([
      ['c1', 'error', answer],
      ['c2', 'error', answer],
    ]);
    expect(ours.outcome).toEqual(plain.outcome);
    expect(ours.started).toEqual(['a']); // the second call never ran
  });

  it('ToolwavesToolNode.invoke without handling tool errors: rejects with the reason, as ToolNode', async () => {
    const plain = await abortedInvoke(
      (tools) => new ToolNode(tools, { handleToolErrors: false }),
      2,
    );
    const ours = await abortedInvoke(
      (tools) =>
        new ToolwavesToolNode(tools, { dispatcher: dispatcher(), handleToolErrors: false }),
      1,
    );
    expect(plain.outcome).toBe(reason);
    expect(ours.outcome).toBe(reason);
  });

  it('createAgent: the run rejects as it does under a middleware that only calls the handler', async () => {
    const passThrough = createMiddleware({
      name: 'PassThrough',
      wrapToolCall: (request, handler) => handler(request),
    });
    const abortedRun = async (middleware: AgentMiddleware, starts: number) => {
      const { tools, started } = heldTools();
      const agent = createAgent({
        model: callingModel({ calls, runs: 1 }),
        tools,
        middleware: [middleware],
      });
      const stop = new AbortController();
      const run = agent.invoke({ messages: [new HumanMessage('Go.')] }, { signal: stop.signal });
      await until(() => started.length === starts);
      stop.abort(reason);
      return {
        error: await run.then(
          () => undefined,
          (error: unknown) => error,
        ),
        started,
      };
    };
    const plain = await abortedRun(passThrough, 2);
    const ours = await abortedRun(toolwavesMiddleware({ dispatcher: dispatcher() }), 1);
    expect(plain.error).toBe(reason);
    expect(ours.error).toBe(reason);
    expect(plain.started.sort()).toEqual(['a', 'b']);
    expect(ours.started).toEqual(['a']);
  });
});

/**
 * A class-based tool that asks a human through `interrupt()` without passing its config on:
 * LangGraph finds the task it belongs to in the async context.
 */
class AskTool extends StructuredTool {
  readonly name = 'ask';
  readonly description = 'Asks a human';
  readonly schema = schema;

  protected override async _call(input: { path: string }): Promise<string> {
    const answer = interrupt({ path: input.path });
    return `${input.path}: ${String(answer)}`;
  }
}

describe('interrupts and commands passed through untouched', () => {
  it('interrupt() from a class-based tool, two calls, then resume: both answers, each its own', async () => {
    const askCalls = [
      { id: 'c1', name: 'ask', args: { path: 'a' } },
      { id: 'c2', name: 'ask', args: { path: 'b' } },
    ];
    const interruptAndResume = async (middleware: ReturnType<typeof createMiddleware>[]) => {
      const agent = createAgent({
        model: callingModel({ calls: askCalls, runs: 1 }),
        tools: [new AskTool()],
        middleware: middleware as never[],
        checkpointer: new MemorySaver(),
      });
      const thread = { configurable: { thread_id: 't1' } };
      const first = await agent.invoke({ messages: [new HumanMessage('Ask twice.')] }, thread);
      const asked = (first.__interrupt__ ?? []) as { id: string; value: { path: string } }[];
      const resume = Object.fromEntries(asked.map((i) => [i.id, `yes for ${i.value.path}`]));
      const done = await agent.invoke(new Command({ resume }), thread);
      return { asked: asked.map((i) => i.value.path).sort(), answers: toolAnswers(done.messages) };
    };
    const plain = await interruptAndResume([]);
    const ours = await interruptAndResume([toolwavesMiddleware({ dispatcher: dispatcher() })]);
    expect(plain).toEqual({
      asked: ['a', 'b'],
      answers: [
        ['c1', 'success', 'a: yes for a'],
        ['c2', 'success', 'b: yes for b'],
      ],
    });
    expect(ours).toEqual(plain);
  });

  it('the same through ToolwavesToolNode, a Send per call, side by side with ToolNode', async () => {
    const askMessage = new AIMessage({
      id: 'm1',
      content: '',
      tool_calls: [
        { id: 'c1', name: 'ask', args: { path: 'a' } },
        { id: 'c2', name: 'ask', args: { path: 'b' } },
      ],
    });
    const interruptAndResume = async (node: ToolNode) => {
      const graph = new StateGraph(MessagesAnnotation)
        .addNode('tools', node)
        .addConditionalEdges(START, (state) =>
          (askMessage.tool_calls ?? []).map(
            (call) => new Send('tools', { ...state, lg_tool_call: call }),
          ),
        )
        .addEdge('tools', END)
        .compile({ checkpointer: new MemorySaver() });
      const thread = { configurable: { thread_id: 't1' } };
      const first = (await graph.invoke({ messages: [askMessage] }, thread)) as {
        readonly __interrupt__?: unknown;
      };
      const asked = (first.__interrupt__ ?? []) as { id: string; value: { path: string } }[];
      const resume = Object.fromEntries(asked.map((i) => [i.id, `yes for ${i.value.path}`]));
      const done = await graph.invoke(new Command({ resume }), thread);
      return {
        asked: asked.map((i) => i.value.path).sort(),
        answers: toolAnswers(done.messages).sort(),
      };
    };
    const plain = await interruptAndResume(new ToolNode([new AskTool()]));
    const ours = await interruptAndResume(
      new ToolwavesToolNode([new AskTool()], { dispatcher: dispatcher() }),
    );
    expect(plain).toEqual({
      asked: ['a', 'b'],
      answers: [
        ['c1', 'success', 'a: yes for a'],
        ['c2', 'success', 'b: yes for b'],
      ],
    });
    expect(ours).toEqual(plain);
  });

  it('a tool that returns a Command: the node gives LangGraph the Command, as ToolNode', async () => {
    const go = tool(
      async ({ path }, config) =>
        new Command({
          update: {
            messages: [
              new ToolMessage({
                content: `went to ${path}`,
                tool_call_id: config.toolCall?.id ?? '',
                name: 'go',
              }),
            ],
          },
        }),
      { name: 'go', description: 'Goes', schema },
    );
    const goMessage = new AIMessage({
      content: '',
      tool_calls: [
        { id: 'g1', name: 'go', args: { path: 'a' } },
        { id: 'g2', name: 'go', args: { path: 'b' } },
      ],
    });
    const plain = await new ToolNode([go]).invoke({ messages: [goMessage] });
    const ours = await new ToolwavesToolNode([go], { dispatcher: dispatcher() }).invoke({
      messages: [goMessage],
    });
    expect(plain).toHaveLength(2);
    expect(plain.every((output: unknown) => output instanceof Command)).toBe(true);
    expect(ours).toEqual(plain);
  });
});
