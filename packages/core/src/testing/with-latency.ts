import { abortableDelay } from '../abortable-delay.js';
import type { Tool } from '../tool.js';
import type { ToolContext } from '../tool-context.js';
import { ToolRegistry } from '../tool-registry.js';

/** Options of {@link withLatency}. */
export interface WithLatencyOptions {
  /** The tools to wrap; the registry itself is left as it is. */
  readonly registry: ToolRegistry;
  /**
   * How long a call of this tool with this input waits before it runs, in ms. The call's
   * context (its `toolCallId`) lets a bench give each call of a batch its own latency.
   */
  readonly latencyMs: (toolName: string, input: unknown, context: ToolContext) => number;
}

/**
 * A copy of a registry whose tools first wait an injected latency (abortable through the call's
 * signal, driven by `setTimeout` so fake timers work), then run for real. Declarations are
 * passed through untouched, so plans are the same as without latency.
 *
 * @example
 * ```ts
 * const slow = withLatency({ registry, latencyMs: (name) => (name === 'grep' ? 300 : 80) });
 * ```
 */
export function withLatency(options: WithLatencyOptions): ToolRegistry {
  const wrapped = new ToolRegistry();
  for (const name of options.registry.names()) {
    const inner = options.registry.get(name);
    if (inner !== undefined) wrapped.add(delayed(inner, options.latencyMs));
  }
  return wrapped;
}

function delayed(inner: Tool, latencyMs: WithLatencyOptions['latencyMs']): Tool {
  const tool: Tool = {
    name: inner.name,
    description: inner.description,
    ...(inner.input === undefined ? {} : { input: inner.input }),
    ...(inner.jsonSchema === undefined ? {} : { jsonSchema: inner.jsonSchema }),
    // A durable turn reads it to decide whether a call cut off by a crash may run again.
    ...(inner.idempotent === undefined ? {} : { idempotent: inner.idempotent }),
    ...(inner.runs === undefined ? {} : { runs: inner.runs }),
    execute: async (input, context) => {
      await abortableDelay(latencyMs(inner.name, input, context), context.signal);
      return inner.execute(input, context);
    },
  };
  return Object.assign(
    tool,
    inner.isConcurrencySafe && { isConcurrencySafe: inner.isConcurrencySafe.bind(inner) },
    inner.resourceKey && { resourceKey: inner.resourceKey.bind(inner) },
    inner.access && { access: inner.access.bind(inner) },
  );
}
