import { withToolwaves } from '@toolwaves/ai-sdk';
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

/** One turn of `generateText` with tools of its own `execute`, scheduled by toolwaves. */
export async function runAiSdkTurn(framework: string, model: LanguageModel): Promise<void> {
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
  log.check(framework, answers);
}
