import { Agent, Runner } from '@openai/agents-core';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import {
  driveEditTurn,
  EDIT_TURN_KEPT_APART,
  editTurnSchedule,
  gatedFsWorkspace,
  EDIT_TURN as TURN,
} from '@toolwaves/tools-fs/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AgentsAdapterError, toAgentsTools, withToolwaves } from '../src/index.js';

/** The gated fs workspace, and a Dispatcher scheduling by its tools' declarations. */
async function onWorkspace() {
  const workspace = await gatedFsWorkspace({
    dispatcher: (settings) => new Dispatcher({ ...settings, mode: 'eager' }),
  });
  onTestFinished(workspace.remove);
  return workspace;
}

const runner = new Runner({ tracingDisabled: true });

async function agentOnWorkspace() {
  const workspace = await onWorkspace();
  const model = new ScriptedModel([
    TURN.map((call) => functionCall(call.name, { ...call.args }, { callId: call.id })),
    [assistantMessage('Done.')],
  ]);
  const agent = withToolwaves(
    new Agent({
      name: 'Editor',
      instructions: 'Edit files.',
      model,
      tools: toAgentsTools(workspace.registry),
    }),
    { dispatcher: workspace.dispatcher },
  );
  return { ...workspace, model, agent };
}

/** The function call outputs the model was given, as `[callId, output text]`. */
function outputsSeenBy(model: ScriptedModel, call: number): [string, string][] {
  const input = model.calls[call]?.request.input;
  return (Array.isArray(input) ? input : []).flatMap((item): [string, string][] => {
    if (item.type !== 'function_call_result') return [];
    const { output } = item;
    if (typeof output === 'string') return [[item.callId, output]];
    return [[item.callId, 'text' in output ? String(output.text) : JSON.stringify(output)]];
  });
}

const prompt = 'Edit a.txt twice, then read b.txt and a.txt.';

describe('withToolwaves on an Agents SDK agent (scripted model, real fs tools)', () => {
  it('keeps the two edits apart and in order, runs the read of b beside them, answers in order', async () => {
    const { agent, model, gates, read } = await agentOnWorkspace();
    const run = runner.run(agent, prompt);

    const observed = await driveEditTurn(gates);
    const result = await run;

    expect(result.finalOutput).toBe('Done.');
    expect({ ...observed, ...editTurnSchedule(gates) }).toEqual(EDIT_TURN_KEPT_APART);
    expect(await read('a.txt')).toBe('gamma\n');
    const outputs = outputsSeenBy(model, 1);
    expect(outputs.map(([callId]) => callId)).toEqual(['e1', 'e2', 'rb', 'ra']);
    expect(outputs[2]?.[1]).toContain('bravo');
    expect(outputs[3]?.[1]).toContain('gamma');
  });

  it('schedules a streamed run the same way', async () => {
    const { agent, model, gates, read } = await agentOnWorkspace();
    const result = await runner.run(agent, prompt, { stream: true });
    const events = (async () => {
      for await (const _event of result) {
        // the run only moves on while its events are read
      }
    })();

    const observed = await driveEditTurn(gates);
    await events;
    await result.completed;

    expect(result.finalOutput).toBe('Done.');
    expect({ ...observed, ...editTurnSchedule(gates) }).toEqual(EDIT_TURN_KEPT_APART);
    expect(await read('a.txt')).toBe('gamma\n');
    expect(outputsSeenBy(model, 1).map(([callId]) => callId)).toEqual(['e1', 'e2', 'rb', 'ra']);
  });

  it('runs nothing that had not started once the run is aborted', async () => {
    const { agent, gates, batches } = await agentOnWorkspace();
    const stop = new AbortController();
    const run = runner.run(agent, prompt, { signal: stop.signal });
    await Promise.all([gates.started('e1'), gates.started('rb')]);

    stop.abort(new Error('stopped by the user'));
    for (const { id } of TURN) gates.open(id); // a call that started now would run to its end
    await expect(run).rejects.toThrow();
    await batches.until(1); // the turn has settled: nothing is left to start

    expect(gates.startedIds().sort()).toEqual(['e1', 'rb']);
  });

  it('passes a tool error to the Agents SDK as that tool error', async () => {
    const workspace = await onWorkspace();
    const { tool } = await import('@openai/agents-core');
    const failing = tool({
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
      strict: false,
      execute: () => {
        throw new Error('disk on fire');
      },
      errorFunction: (_context, error) => `read_file failed: ${(error as Error).message}`,
    });
    const model = new ScriptedModel([
      [functionCall('read_file', { path: 'b.txt' }, { callId: 'r1' })],
      [assistantMessage('Sorry.')],
    ]);
    const agent = withToolwaves(new Agent({ name: 'Reader', model, tools: [failing] }), {
      dispatcher: workspace.dispatcher,
    });
    await runner.run(agent, prompt);
    expect(outputsSeenBy(model, 1)).toEqual([['r1', 'read_file failed: disk on fire']]);
  });

  it('answers a call toolwaves refuses (invalid input) with the reason, for the model', async () => {
    const workspace = await onWorkspace();
    const model = new ScriptedModel([
      [functionCall('read_file', { path: 42 }, { callId: 'bad' })],
      [assistantMessage('Sorry.')],
    ]);
    const agent = withToolwaves(
      new Agent({ name: 'Reader', model, tools: toAgentsTools(workspace.registry) }),
      { dispatcher: workspace.dispatcher },
    );
    await runner.run(agent, prompt);
    const [answer] = outputsSeenBy(model, 1);
    expect(answer?.[0]).toBe('bad');
    expect(answer?.[1]).toContain('path');
    expect(workspace.gates.startedIds()).toEqual([]);
  });

  it('names the option and the value when the dispatcher is missing', () => {
    expect(() => withToolwaves([], { dispatcher: undefined as never })).toThrow(
      new AgentsAdapterError({
        code: 'invalid_options',
        message:
          'Expected `dispatcher` to be a Dispatcher (with openTurn), got `undefined` (undefined)',
      }),
    );
  });

  it('refuses an unknown option, naming the one meant, and a registry where the dispatcher belongs', () => {
    expect(() => withToolwaves([], { dispatcher: {}, dispacher: {} } as never)).toThrow(
      new AgentsAdapterError({
        code: 'invalid_options',
        message:
          'Unknown option `dispacher` in the options of withToolwaves; did you mean `dispatcher`? The options are `dispatcher`, `modelOrdering`',
      }),
    );
    expect(() => withToolwaves([], { dispatcher: new ToolRegistry() as never })).toThrow(
      'Expected `dispatcher` to be a Dispatcher (with openTurn), got a ToolRegistry',
    );
    expect(() => withToolwaves([], undefined as never)).toThrow(
      'Expected the options of withToolwaves to be an object, got `undefined` (undefined)',
    );
  });

  it('names a missing tools argument of toAgentsTools', () => {
    expect(() => toAgentsTools(undefined as never)).toThrow(
      new AgentsAdapterError({
        code: 'invalid_options',
        message:
          'Expected the tools of toAgentsTools to be a ToolRegistry or an array of tools, got `undefined` (undefined)',
      }),
    );
  });
});
