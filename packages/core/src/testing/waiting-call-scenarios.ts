import { declareTool } from '../declare-tool.js';
import { ToolRegistry } from '../tool-registry.js';

/** One way to make most calls of a turn wait for another call to end; see {@link WAITING_CALL_SCENARIOS}. */
export interface WaitingCallScenario {
  /** Names the scenario in a test title. */
  readonly name: string;
  /** The Dispatcher's `maxConcurrency`. */
  readonly cap: number;
  /** Whether the `probe` tool declares itself concurrency-safe with a key (else it runs alone). */
  readonly declared: boolean;
  /** The `path` input of call `i`: its key when declared. */
  readonly path: (i: number) => string;
}

/**
 * Ten calls of one `probe` tool, scheduled so that most of them wait for another call to end:
 * more calls than the cap, every call on one key, and an undeclared tool (each call alone).
 * What the adapters' async-context tests run, each through its framework's own loop: a call
 * that waited must still run in the context of the code that asked for it.
 *
 * @example
 * ```ts
 * for (const scenario of WAITING_CALL_SCENARIOS) {
 *   const registry = probeRegistry(scenario);
 *   const dispatcher = new Dispatcher({ registry, mode: 'eager', maxConcurrency: scenario.cap });
 * }
 * ```
 * @see probeRegistry
 */
export const WAITING_CALL_SCENARIOS: readonly WaitingCallScenario[] = [
  { name: 'more calls than the cap', cap: 3, declared: true, path: (i) => `f${i}` },
  { name: 'conflicting calls (one key)', cap: 8, declared: true, path: () => 'same' },
  { name: 'undeclared tools (each alone)', cap: 8, declared: false, path: (i) => `f${i}` },
];

/**
 * The registry of a {@link WaitingCallScenario}: the `probe` tool declared concurrency-safe on
 * the key of its `path` input, or empty when the scenario's tool is undeclared (the framework's
 * own `probe` then runs alone, as an unregistered tool with its own execute does).
 */
export function probeRegistry(scenario: WaitingCallScenario): ToolRegistry {
  const registry = new ToolRegistry();
  if (scenario.declared) {
    registry.add(
      declareTool({
        name: 'probe',
        concurrencySafe: true,
        resourceKey: (input: { path: string }) => input.path,
      }),
    );
  }
  return registry;
}
