import { toAiSdkTools, withToolwaves } from '@toolwaves/ai-sdk';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  FRAMEWORK_TASK,
  type FrameworkSessionOptions,
  scriptedCallId,
} from './framework-session-options.js';
import { SCRIPTED_FINAL_TEXT } from './scripted-model.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/**
 * The scripted session in the AI SDK's own loop (`generateText` over several steps): its mock
 * model answers each step with the next scripted turn, the AI SDK runs the demo's tools (with
 * their own `execute`), and `withToolwaves` schedules each step's calls.
 */
export async function runAiSdkSession(options: FrameworkSessionOptions): Promise<string> {
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async (): Promise<GenerateResult> => {
      const t = step;
      step += 1;
      const turn = options.turns[t];
      if (turn === undefined) {
        return {
          content: [{ type: 'text', text: SCRIPTED_FINAL_TEXT }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      options.onTurn(t + 1, turn.text, turn.calls.length);
      return {
        content: [
          { type: 'text', text: turn.text },
          ...turn.calls.map((call, i) => ({
            type: 'tool-call' as const,
            toolCallId: scriptedCallId(t, i),
            toolName: call.name,
            input: JSON.stringify(call.input),
          })),
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  const tools = toAiSdkTools(options.registry, { execute: true });
  const result = await generateText({
    model,
    tools:
      options.dispatcher === undefined
        ? tools
        : withToolwaves(tools, { dispatcher: options.dispatcher }),
    stopWhen: ({ steps }) => steps.length > options.turns.length,
    prompt: FRAMEWORK_TASK,
    abortSignal: options.signal,
  });
  return result.text;
}
