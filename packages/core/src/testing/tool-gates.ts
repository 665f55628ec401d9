import type { Tool } from '../tool.js';
import type { ToolContext } from '../tool-context.js';
import type { ToolOutput } from '../tool-output.js';

/** What {@link ToolGates} recorded: a call entering its tool, or its tool having returned. */
export interface GateEvent {
  readonly type: 'start' | 'end';
  readonly toolCallId: string;
  readonly toolName: string;
}

interface Gate {
  readonly open: Promise<void>;
  readonly release: () => void;
  readonly started: Promise<void>;
  readonly markStarted: () => void;
}

/**
 * Tools held at a gate the test opens call by call, recording when each call starts and ends:
 * latency a test controls without any clock, so that which calls overlapped is read from the
 * recorded events. A wrapped tool keeps its declarations (it is the same object underneath);
 * only `execute` waits for `open(toolCallId)` before running the real tool.
 *
 * @example
 * ```ts
 * const gates = new ToolGates();
 * const readFile = gates.wrap(registry.get('read_file')!);
 * const answer = readFile.execute({ path: 'a' }, { toolCallId: 'r1', signal, attempt: 1 });
 * await gates.started('r1');
 * gates.open('r1');
 * await answer;
 * gates.events; // [{ type: 'start', toolCallId: 'r1', ... }, { type: 'end', ... }]
 * ```
 * @see batchEnds, to know when a dispatch or turn has settled.
 */
export class ToolGates {
  /** Every start and end, in the order they happened. */
  readonly events: GateEvent[] = [];
  readonly #gates = new Map<string, Gate>();

  /** The tool, with `execute` held at the gate of each call's `toolCallId`. */
  wrap<I>(tool: Tool<I>): Tool<I> {
    const execute = async (input: I, context: ToolContext): Promise<string | ToolOutput> => {
      const { toolCallId } = context;
      const gate = this.#gate(toolCallId);
      this.events.push({ type: 'start', toolCallId, toolName: tool.name });
      gate.markStarted();
      await gate.open;
      try {
        return await tool.execute(input, context);
      } finally {
        this.events.push({ type: 'end', toolCallId, toolName: tool.name });
      }
    };
    return Object.create(tool, { execute: { value: execute } }) as Tool<I>;
  }

  /** Resolves once call `toolCallId` has entered its tool. */
  started(toolCallId: string): Promise<void> {
    return this.#gate(toolCallId).started;
  }

  /** Lets call `toolCallId` run its tool (now, or as soon as it starts). */
  open(toolCallId: string): void {
    this.#gate(toolCallId).release();
  }

  /** The ids of the calls that have entered their tool, in that order. */
  startedIds(): string[] {
    return this.events.filter((event) => event.type === 'start').map((event) => event.toolCallId);
  }

  /** The position of an event in {@link events}, or -1: `indexOf('end', 'e1')`. */
  indexOf(type: GateEvent['type'], toolCallId: string): number {
    return this.events.findIndex((event) => event.type === type && event.toolCallId === toolCallId);
  }

  /** Whether two calls were inside their tools at the same time (from the recorded events). */
  overlapped(first: string, second: string): boolean {
    const end = (id: string) => {
      const at = this.indexOf('end', id);
      return at === -1 ? Number.POSITIVE_INFINITY : at;
    };
    const start = (id: string) => {
      const at = this.indexOf('start', id);
      return at === -1 ? Number.POSITIVE_INFINITY : at;
    };
    return start(first) < end(second) && start(second) < end(first);
  }

  #gate(toolCallId: string): Gate {
    let gate = this.#gates.get(toolCallId);
    if (gate === undefined) {
      let release: () => void = () => undefined;
      let markStarted: () => void = () => undefined;
      const open = new Promise<void>((resolve) => {
        release = resolve;
      });
      const started = new Promise<void>((resolve) => {
        markStarted = resolve;
      });
      gate = { open, release, started, markStarted };
      this.#gates.set(toolCallId, gate);
    }
    return gate;
  }
}
