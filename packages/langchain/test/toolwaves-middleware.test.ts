import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import {
  driveEditTurn,
  EDIT_TURN_KEPT_APART,
  editTurnSchedule,
  gatedFsWorkspace,
  settle,
  EDIT_TURN as TURN,
} from '@toolwaves/tools-fs/testing';
import { createAgent, createMiddleware } from 'langchain';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LangChainAdapterError, toLangChainTools, toolwavesMiddleware } from '../src/index.js';

/** The gated fs workspace, and a Dispatcher scheduling by its tools' declarations. */
async function onWorkspace() {
  const workspace = await gatedFsWorkspace({
    dispatcher: (settings) => new Dispatcher({ ...settings, mode: 'eager' }),
  });
  onTestFinished(workspace.remove);
  return workspace;
}

/** `version`: createAgent's tool behaviour, a `Send` per call (`v2`, the default) or one node (`v1`). */
async function agentOnWorkspace(version: 'v1' | 'v2' = 'v2') {
  const workspace = await onWorkspace();
  const model = fakeModel()
    .respondWithTools(TURN.map((call) => ({ ...call, args: { ...call.args } })))
    .respond(new AIMessage('Done.'));
  const agent = createAgent({
    model,
    tools: toLangChainTools(workspace.registry),
    middleware: [toolwavesMiddleware({ dispatcher: workspace.dispatcher })],
    version,
  });
  return { ...workspace, model, agent };
}

const prompt = { messages: [new HumanMessage('Edit a.txt twice, then read b.txt and a.txt.')] };

describe('toolwavesMiddleware in createAgent (fake model, real fs tools)', () => {
  it.each(['v2', 'v1'] as const)(
    'keeps the two edits apart and in order, runs the read of b beside them, answers in order (%s)',
    async (version) => {
      const { agent, model, gates, read } = await agentOnWorkspace(version);
      const run = agent.invoke(prompt);

      const observed = await driveEditTurn(gates);
      await run;
      expect({ ...observed, ...editTurnSchedule(gates) }).toEqual(EDIT_TURN_KEPT_APART);
      expect(await read('a.txt')).toBe('gamma\n');
      const answers = (model.calls[1]?.messages ?? []).filter((message) =>
        ToolMessage.isInstance(message),
      );
      expect(answers.map((message) => [message.tool_call_id, message.status])).toEqual([
        ['e1', 'success'],
        ['e2', 'success'],
        ['rb', 'success'],
        ['ra', 'success'],
      ]);
      expect(String(answers[2]?.content)).toContain('bravo');
      expect(String(answers[3]?.content)).toContain('gamma');
    },
  );

  it('runs a tool the registry does not know alone: nothing overlaps it, nothing crosses it', async () => {
    const workspace = await onWorkspace();
    const { gates } = workspace;
    const { fnTool } = await import('@toolwaves/core');
    const { z } = await import('zod');
    const runTests = gates.wrap(
      fnTool({
        name: 'run_tests',
        description: 'Run the tests',
        input: z.object({}),
        execute: () => 'all green',
      }),
    );
    const model = fakeModel()
      .respondWithTools([
        { id: 'rb', name: 'read_file', args: { path: 'b.txt' } },
        { id: 't', name: 'run_tests', args: {} },
        { id: 'ra', name: 'read_file', args: { path: 'a.txt' } },
      ])
      .respond(new AIMessage('Done.'));
    const agent = createAgent({
      model,
      // run_tests is a LangChain tool like the others, but the dispatcher's registry lacks it
      tools: [...toLangChainTools(workspace.registry), ...toLangChainTools([runTests])],
      middleware: [toolwavesMiddleware({ dispatcher: workspace.dispatcher })],
    });
    const run = agent.invoke(prompt);

    const order = ['rb', 't', 'ra'];
    for (const [i, id] of order.entries()) {
      await gates.started(id);
      await settle();
      expect(gates.startedIds()).toEqual(order.slice(0, i + 1)); // the next waits for this one
      gates.open(id);
    }
    await run;
    expect(gates.indexOf('start', 't')).toBeGreaterThan(gates.indexOf('end', 'rb'));
    expect(gates.indexOf('start', 'ra')).toBeGreaterThan(gates.indexOf('end', 't'));
  });

  it('runs nothing that had not started once the graph is aborted', async () => {
    const { agent, gates, batches } = await agentOnWorkspace();
    const stop = new AbortController();
    const run = agent.invoke(prompt, { signal: stop.signal });
    await Promise.all([gates.started('e1'), gates.started('rb')]);

    stop.abort(new Error('stopped by the user'));
    await expect(run).rejects.toThrow();
    for (const { id } of TURN) gates.open(id); // a call that started now would run to its end
    await batches.until(1); // the turn has settled: nothing is left to start

    expect(gates.startedIds().sort()).toEqual(['e1', 'rb']);
  });

  it('hands a soft error of toolwaves (invalid input) back as an error ToolMessage', async () => {
    const workspace = await onWorkspace();
    const model = fakeModel()
      .respondWithTools([{ id: 'bad', name: 'read_file', args: { path: 42 } }])
      .respond(new AIMessage('Sorry.'));
    // the LangChain tool takes anything: the dispatcher's declarations check the input
    const { tool } = await import('langchain');
    const { z } = await import('zod');
    const loose = tool(async () => 'ran', {
      name: 'read_file',
      description: 'Read a file',
      schema: z.object({ path: z.unknown() }),
    });
    const agent = createAgent({
      model,
      tools: [loose],
      middleware: [toolwavesMiddleware({ dispatcher: workspace.dispatcher })],
    });
    await agent.invoke(prompt);
    const answer = model.calls[1]?.messages.find((message) => ToolMessage.isInstance(message));
    expect(answer?.status).toBe('error');
    expect(String(answer?.content)).toContain('path');
    expect(workspace.gates.startedIds()).toEqual([]);
  });

  it("hands a tool's own error to LangChain unchanged, as without the middleware", async () => {
    const workspace = await onWorkspace();
    const failure = new Error('disk on fire');
    const { tool } = await import('langchain');
    const { z } = await import('zod');
    const failing = tool(
      async (): Promise<string> => {
        throw failure;
      },
      { name: 'read_file', description: 'Read a file', schema: z.object({ path: z.string() }) },
    );
    const agentWith = (middleware: ReturnType<typeof toolwavesMiddleware>[]) =>
      createAgent({
        model: fakeModel()
          .respondWithTools([{ id: 'r1', name: 'read_file', args: { path: 'b.txt' } }])
          .respond(new AIMessage('Sorry.')),
        tools: [failing],
        middleware,
      });
    const passThrough = createMiddleware({
      name: 'PassThrough',
      wrapToolCall: (request, handler) => handler(request),
    });
    // LangChain's own answer to a tool error under a middleware that only calls the handler
    const plain = await agentWith([passThrough as never])
      .invoke(prompt)
      .catch((error) => error);
    const scheduled = await agentWith([toolwavesMiddleware({ dispatcher: workspace.dispatcher })])
      .invoke(prompt)
      .catch((error) => error);
    expect(plain).toBe(failure);
    expect(scheduled).toBe(failure);
  });

  it('names the option and the value when the dispatcher is missing', () => {
    expect(() => toolwavesMiddleware({ dispatcher: undefined as never })).toThrow(
      new LangChainAdapterError({
        code: 'invalid_options',
        message:
          'Expected `dispatcher` to be a Dispatcher (with openTurn), got `undefined` (undefined)',
      }),
    );
  });

  it('refuses an unknown option, naming the one meant, and a registry where the dispatcher belongs', () => {
    expect(() => toolwavesMiddleware({ dispatcher: {}, dispatchr: {} } as never)).toThrow(
      'Unknown option `dispatchr` in the options of toolwavesMiddleware; did you mean `dispatcher`? The options are `dispatcher`, `modelOrdering`',
    );
    expect(() => toolwavesMiddleware({ dispatcher: new ToolRegistry() as never })).toThrow(
      'Expected `dispatcher` to be a Dispatcher (with openTurn), got a ToolRegistry',
    );
    expect(() => toolwavesMiddleware(undefined as never)).toThrow(
      new LangChainAdapterError({
        code: 'invalid_options',
        message:
          'Expected the options of toolwavesMiddleware to be an object, got `undefined` (undefined)',
      }),
    );
  });

  it('names a missing tools argument of toLangChainTools, not a TypeError from inside', () => {
    expect(() => toLangChainTools(undefined as never)).toThrow(
      new LangChainAdapterError({
        code: 'invalid_options',
        message:
          'Expected the tools of toLangChainTools to be a ToolRegistry or an array of tools, got `undefined` (undefined)',
      }),
    );
    expect(() => toLangChainTools([{ name: 'x' }] as never)).toThrow(
      'Expected `tools[0]` to be a tool ({ name: string, description: string, execute(input, context) }), got `{"name":"x"}` (object)',
    );
  });
});
