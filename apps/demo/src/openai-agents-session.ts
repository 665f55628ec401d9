import { Agent, Runner } from '@openai/agents-core';
import {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
} from '@openai/agents-core/testing';
import { toAgentsTools, withToolwaves } from '@toolwaves/openai-agents';
import {
  FRAMEWORK_TASK,
  type FrameworkSessionOptions,
  scriptedCallId,
} from './framework-session-options.js';
import { SCRIPTED_FINAL_TEXT } from './scripted-model.js';

/**
 * The scripted session in the OpenAI Agents SDK's run loop: its `ScriptedModel` answers each
 * model call with the next scripted turn's function calls, the runner runs the demo's tools, and
 * `withToolwaves` schedules each response's calls.
 */
export async function runOpenAIAgentsSession(options: FrameworkSessionOptions): Promise<string> {
  const model = new ScriptedModel([
    ...options.turns.map((turn, t) =>
      modelResponder(() => {
        options.onTurn(t + 1, turn.text, turn.calls.length);
        return turn.calls.map((call, i) =>
          functionCall(call.name, call.input as Record<string, unknown>, {
            callId: scriptedCallId(t, i),
          }),
        );
      }),
    ),
    [assistantMessage(SCRIPTED_FINAL_TEXT)],
  ]);
  const agent = new Agent({
    name: 'toolwaves demo',
    instructions: FRAMEWORK_TASK,
    model,
    tools: toAgentsTools(options.registry),
  });
  const { dispatcher } = options;
  const runner = new Runner({ tracingDisabled: true });
  const scheduled = dispatcher === undefined ? agent : withToolwaves(agent, { dispatcher });
  const result = await runner.run(scheduled, FRAMEWORK_TASK, {
    signal: options.signal,
    maxTurns: options.turns.length + 1,
  });
  return String(result.finalOutput ?? '');
}
