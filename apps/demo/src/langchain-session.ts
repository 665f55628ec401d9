import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { toLangChainTools, toolwavesMiddleware } from '@toolwaves/langchain';
import { createAgent } from 'langchain';
import {
  FRAMEWORK_TASK,
  type FrameworkSessionOptions,
  scriptedCallId,
} from './framework-session-options.js';
import { SCRIPTED_FINAL_TEXT } from './scripted-model.js';

/**
 * The scripted session in LangChain's `createAgent` loop: its fake chat model (`fakeModel`)
 * answers each model call with the next scripted turn, the agent's tool node runs the demo's
 * tools, and `toolwavesMiddleware` schedules each turn's calls.
 */
export async function runLangChainSession(options: FrameworkSessionOptions): Promise<string> {
  const model = fakeModel();
  options.turns.forEach((turn, t) => {
    model.respond(() => {
      options.onTurn(t + 1, turn.text, turn.calls.length);
      return new AIMessage({
        content: turn.text,
        tool_calls: turn.calls.map((call, i) => ({
          id: scriptedCallId(t, i),
          name: call.name,
          args: call.input as Record<string, unknown>,
        })),
      });
    });
  });
  model.respond(new AIMessage(SCRIPTED_FINAL_TEXT));
  const agent = createAgent({
    model,
    tools: toLangChainTools(options.registry),
    middleware:
      options.dispatcher === undefined
        ? []
        : [toolwavesMiddleware({ dispatcher: options.dispatcher })],
  });
  const state = await agent.invoke(
    { messages: [new HumanMessage(FRAMEWORK_TASK)] },
    { signal: options.signal },
  );
  return String(state.messages.at(-1)?.content ?? '');
}
