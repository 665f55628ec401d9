import type { FrameworkSessionOptions } from './framework-session-options.js';

/** The agent frameworks the demo can run its scripted session in (`--framework`). */
export const FRAMEWORK_NAMES = ['langchain', 'openai-agents', 'ai-sdk'] as const;
/** An agent framework the demo knows by name. */
export type FrameworkName = (typeof FRAMEWORK_NAMES)[number];

/**
 * Runs the scripted session in a framework's own agent loop, on that framework's fake model
 * replaying the scripted turns, its tool calls scheduled by toolwaves. Resolves with the model's
 * last words. Each framework is loaded only when asked for.
 */
export async function runFrameworkSession(
  framework: FrameworkName,
  options: FrameworkSessionOptions,
): Promise<string> {
  switch (framework) {
    case 'langchain':
      return (await import('./langchain-session.js')).runLangChainSession(options);
    case 'openai-agents':
      return (await import('./openai-agents-session.js')).runOpenAIAgentsSession(options);
    case 'ai-sdk':
      return (await import('./ai-sdk-session.js')).runAiSdkSession(options);
  }
}
