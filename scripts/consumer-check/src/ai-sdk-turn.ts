import { runToolLoop, withToolwaves } from '@toolwaves/ai-sdk';
import { fnTool, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { generateText, type LanguageModel, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { TURN, TurnLog, turnDispatcher } from './turn-log.js';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** The mock model's answers: the turn's calls, then its last words. */
export const MODEL_STEPS = [
  {
    content: TURN.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  },
  {
    content: [{ type: 'text' as const, text: 'done' }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage,
    warnings: [],
  },
];

/**
 * One turn of `generateText` with tools of their own `execute`, scheduled by toolwaves
 * (`withToolwaves`), then one of `runToolLoop`, where toolwaves runs the tools itself; each on a
 * fresh model from `model`.
 */
export async function runAiSdkTurn(framework: string, model: () => LanguageModel): Promise<void> {
  await runWithToolwaves(framework, model());
  await runLoop(framework, model());
}

async function runWithToolwaves(framework: string, model: LanguageModel): Promise<void> {
  const log = new TurnLog();
  const input = z.object({ path: z.string() });
  const tools = {
    read_file: tool({
      description: 'Read a file',
      inputSchema: input,
      execute: ({ path }) => log.run('read_file', path),
    }),
    edit_file: tool({
      description: 'Edit a file',
      inputSchema: input,
      execute: ({ path }) => log.run('edit_file', path),
    }),
  };
  const result = await generateText({
    model,
    tools: withToolwaves(tools, { dispatcher: turnDispatcher() }),
    stopWhen: stepCountIs(2),
    prompt: 'Fix a.ts',
  });
  const outputs = result.steps[0]?.toolResults ?? [];
  const answers = TURN.map((call) =>
    String(outputs.find((output) => output.toolCallId === call.id)?.output),
  );
  log.check(`${framework} generateText + withToolwaves`, answers);
}

async function runLoop(framework: string, model: LanguageModel): Promise<void> {
  const log = new TurnLog();
  const input = z.object({ path: z.string() });
  const fileTool = (name: 'read_file' | 'edit_file', mode: 'read' | 'write') =>
    fnTool({
      name,
      description: name,
      input,
      concurrencySafe: true,
      access: ({ path }) => [{ key: `fs:/${path}`, mode }],
      execute: ({ path }) => log.run(name, path),
    });
  const registry = new ToolRegistry()
    .add(fileTool('read_file', 'read'))
    .add(fileTool('edit_file', 'write'));
  const result = await runToolLoop({
    model,
    dispatcher: new Dispatcher({ registry, mode: 'eager' }),
    prompt: 'Fix a.ts',
  });
  const results = result.steps[0]?.results ?? [];
  const answers = TURN.map((call) =>
    String(results.find((answer) => answer.toolCallId === call.id)?.content),
  );
  log.check(`${framework} runToolLoop`, answers);
}
