import { AsyncLocalStorage } from 'node:async_hooks';
import { getCurrentSpan, getCurrentTrace, tool } from '@openai/agents-core';
import {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
} from '@openai/agents-core/testing';
import type { JsonObjectSchemaNonStrict } from '@openai/agents-core/types';

/** A request-scoped value: the run that asked (set around `run` by the test). */
export const requestScope = new AsyncLocalStorage<string>();

/** What a probe read of its async context when it started. */
export interface ContextReading {
  /** The call's own input (given explicitly by the SDK, not read from the context). */
  readonly path: string;
  readonly n: number;
  readonly request: string | undefined;
  /** The input of the SDK's current span: its `function` span carries the call's arguments. */
  readonly spanInput: string | undefined;
  /** The SDK's current trace: one per run. */
  readonly traceId: string | undefined;
}

/** The JSON Schema of the probes' input: any object (`{ path, n }` here). */
export const objectParameters: JsonObjectSchemaNonStrict<Record<string, never>> = {
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: true,
};

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A function tool that reads its async context when it starts (the run's request value, the
 * SDK's current span and trace), then answers `request:path` after a few turns of the event
 * loop, so that calls beyond the cap start when another call ends, in that call's completion.
 */
export function probeTool(options: { readonly name: string; readonly readings: ContextReading[] }) {
  return tool({
    name: options.name,
    description: 'Reads its async context',
    parameters: objectParameters,
    strict: false,
    execute: async (input) => {
      const { path, n } = input as { path: string; n: number };
      const span = getCurrentSpan()?.spanData as { readonly input?: string } | undefined;
      options.readings.push({
        path,
        n,
        request: requestScope.getStore(),
        spanInput: span?.input,
        traceId: getCurrentTrace()?.traceId,
      });
      for (let i = 0; i < 3; i += 1) await tick();
      return `${requestScope.getStore()}:${path}`;
    },
  });
}

/**
 * A scripted model for any number of runs at once: asked with no tool output in its input, it
 * asks for `calls`; asked with tool outputs, it says "Done.".
 */
export function callingModel(options: {
  readonly calls: readonly {
    readonly id: string;
    readonly name: string;
    readonly path: string;
    readonly n: number;
  }[];
  readonly runs: number;
}): ScriptedModel {
  const steps = Array.from({ length: options.runs * 2 }, () =>
    modelResponder((call) => {
      const { input } = call.request;
      const answered =
        Array.isArray(input) && input.some((item) => item.type === 'function_call_result');
      return answered
        ? [assistantMessage('Done.')]
        : options.calls.map((c) =>
            functionCall(c.name, { path: c.path, n: c.n }, { callId: c.id }),
          );
    }),
  );
  return new ScriptedModel(steps);
}

/** The function call outputs the model was given in call `index`, as `[callId, output]`. */
export function outputsSeenBy(model: ScriptedModel, index: number): [string, string][] {
  const input = model.calls[index]?.request.input;
  return (Array.isArray(input) ? input : []).flatMap((item): [string, string][] => {
    if (item.type !== 'function_call_result') return [];
    const { output } = item;
    if (typeof output === 'string') return [[item.callId, output]];
    return [[item.callId, 'text' in output ? String(output.text) : JSON.stringify(output)]];
  });
}

/**
 * Turns the event loop until `condition()` holds (at most `turns` times): no wall-clock wait.
 */
export async function until(condition: () => boolean, turns = 100_000): Promise<void> {
  for (let i = 0; i < turns; i += 1) {
    if (condition()) return;
    await tick();
  }
  throw new Error(`the condition did not hold after ${turns} turns of the event loop`);
}
