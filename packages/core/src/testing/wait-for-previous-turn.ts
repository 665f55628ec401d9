import { z } from 'zod';
import { declareTool } from '../declare-tool.js';
import { ToolRegistry } from '../tool-registry.js';

/**
 * The turn every framework adapter's `wait_for_previous` test has its fake model ask for:
 * `lookup` twice (`a`, `b`), then `summarize` (`c`) with `wait_for_previous: true`. The three
 * are concurrency-safe and keyless, so only the model's flag keeps `c` after the others.
 */
export const WAIT_FOR_PREVIOUS_TURN = [
  { id: 'a', name: 'lookup', input: { topic: 'a' } },
  { id: 'b', name: 'lookup', input: { topic: 'b' } },
  { id: 'c', name: 'summarize', input: { topic: 'c', wait_for_previous: true } },
] as const;

/** What the framework's tools log when {@link driveWaitForPrevious} runs the turn as it should. */
export const WAIT_FOR_PREVIOUS_ORDER = [
  'start a',
  'start b',
  'end a',
  'end b',
  'start c',
  'end c',
] as const;

/** The input of the turn's tools, in the framework's schema. */
export const topicInput = z.object({ topic: z.string() });

/** The registry of the turn: `lookup` and `summarize`, concurrency-safe, keyless. */
export function waitForPreviousRegistry(): ToolRegistry {
  return new ToolRegistry()
    .add(declareTool({ name: 'lookup', input: topicInput, concurrencySafe: true }))
    .add(declareTool({ name: 'summarize', input: topicInput, concurrencySafe: true }));
}

interface Gate {
  readonly open: Promise<void>;
  readonly release: () => void;
  readonly started: Promise<void>;
  readonly markStarted: () => void;
}

/**
 * The framework's own tool bodies for the turn, each held at a gate the test opens, logging
 * `start <id>` and `end <id>` (an ordered event log: no clock) and the input each one got.
 */
export class TopicGates {
  /** `start a`, `end a`, … in the order they happened. */
  readonly log: string[] = [];
  /** The input each call's tool body got, by topic. */
  readonly inputs: Record<string, unknown> = {};
  readonly #gates = new Map<string, Gate>();

  /** The tool body: logs its start, waits for its gate, logs its end. */
  readonly run = async (input: { readonly topic: string }): Promise<string> => {
    const { topic } = input;
    this.inputs[topic] = input;
    this.log.push(`start ${topic}`);
    const gate = this.#gate(topic);
    gate.markStarted();
    await gate.open;
    this.log.push(`end ${topic}`);
    return `about ${topic}`;
  };

  started(topic: string): Promise<void> {
    return this.#gate(topic).started;
  }

  open(topic: string): void {
    this.#gate(topic).release();
  }

  #gate(topic: string): Gate {
    let gate = this.#gates.get(topic);
    if (gate === undefined) {
      let release = () => {};
      let markStarted = () => {};
      const open = new Promise<void>((resolve) => {
        release = resolve;
      });
      const started = new Promise<void>((resolve) => {
        markStarted = resolve;
      });
      gate = { open, release, started, markStarted };
      this.#gates.set(topic, gate);
    }
    return gate;
  }
}

/** A few turns of the event loop: what a call free to start would need to start. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs the turn through the gates: once `a` and `b` are both inside their tools (so they
 * overlap), lets the loop settle, ends `a`, lets it settle, ends `b`, then waits for `c` and ends
 * it. A `c` that does not wait for the others starts before `a` ends: the log shows it.
 */
export async function driveWaitForPrevious(gates: TopicGates): Promise<void> {
  await Promise.all([gates.started('a'), gates.started('b')]);
  await settle();
  gates.open('a');
  await settle();
  gates.open('b');
  await gates.started('c');
  gates.open('c');
}
