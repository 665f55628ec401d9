import type { Access } from '@toolwaves/planner';
import type { ZodType } from 'zod';
import { abortableDelay } from '../abortable-delay.js';
import type { Tool } from '../tool.js';
import type { ToolContext } from '../tool-context.js';
import type { ToolOutput } from '../tool-output.js';

/** One call a {@link MockTool} received. */
export interface MockToolCall {
  readonly input: unknown;
  readonly toolCallId: string;
  readonly attempt: number;
  /** Clock reading when the call started and ended (`undefined` while running). */
  readonly startedAt: number;
  endedAt: number | undefined;
  /** How the call ended. */
  outcome: 'running' | 'ok' | 'error' | 'threw' | 'aborted';
}

/** Options of {@link MockTool}. Every behaviour may be a constant or a function of the input. */
export interface MockToolOptions {
  readonly name: string;
  readonly description?: string;
  readonly input?: ZodType;
  /** What `execute` answers. Default `"<name> ok"`. */
  readonly result?:
    | string
    | ToolOutput
    | ((input: unknown, context: ToolContext) => string | ToolOutput);
  /** Makes `execute` throw this error (or a function's error) instead of answering. */
  readonly error?: Error | ((input: unknown, attempt: number) => Error | undefined);
  /** How long `execute` takes, with `setTimeout` (so fake timers and virtual clocks drive it). Default 0: answers without a timer. */
  readonly delayMs?: number | ((input: unknown) => number);
  readonly concurrencySafe?: boolean | ((input: unknown) => boolean);
  readonly resourceKey?: string | ((input: unknown) => string | undefined);
  readonly access?: readonly Access[] | ((input: unknown) => readonly Access[]);
  /** Clock for `startedAt`/`endedAt`. Default `Date.now` (faked by vitest's fake timers). */
  readonly now?: () => number;
}

const resolve = <T>(value: T | ((input: unknown) => T), input: unknown): T =>
  typeof value === 'function' ? (value as (input: unknown) => T)(input) : value;

/**
 * A configurable tool for tests: fixed results or errors, a delay driven by `setTimeout`
 * (works under fake timers), per-input declarations, and a record of every call with its
 * start and end, the live count and the highest live count seen.
 *
 * @example
 * ```ts
 * const slow = new MockTool({ name: 'slow', delayMs: 100, concurrencySafe: true });
 * registry.add(slow);
 * // ...dispatch, advance fake timers...
 * expect(slow.maxLive).toBe(3);
 * ```
 */
export class MockTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly input?: ZodType;
  readonly calls: MockToolCall[] = [];
  #live = 0;
  #maxLive = 0;
  readonly #options: MockToolOptions;

  constructor(options: MockToolOptions) {
    this.#options = options;
    this.name = options.name;
    this.description = options.description ?? `mock tool ${options.name}`;
    if (options.input !== undefined) this.input = options.input;
  }

  /** Calls running now. */
  get live(): number {
    return this.#live;
  }

  /** The most calls that ran at once. */
  get maxLive(): number {
    return this.#maxLive;
  }

  isConcurrencySafe(input: unknown): boolean {
    return resolve(this.#options.concurrencySafe ?? false, input);
  }

  resourceKey(input: unknown): string | undefined {
    return this.#options.resourceKey === undefined
      ? undefined
      : resolve(this.#options.resourceKey, input);
  }

  access(input: unknown): readonly Access[] {
    return this.#options.access === undefined ? [] : resolve(this.#options.access, input);
  }

  async execute(input: unknown, context: ToolContext): Promise<string | ToolOutput> {
    const now = this.#options.now ?? Date.now;
    const record: MockToolCall = {
      input,
      toolCallId: context.toolCallId,
      attempt: context.attempt,
      startedAt: now(),
      endedAt: undefined,
      outcome: 'running',
    };
    this.calls.push(record);
    this.#live += 1;
    this.#maxLive = Math.max(this.#maxLive, this.#live);
    try {
      const delay = resolve(this.#options.delayMs ?? 0, input);
      if (delay > 0) await abortableDelay(delay, context.signal);
      const error =
        typeof this.#options.error === 'function'
          ? this.#options.error(input, context.attempt)
          : this.#options.error;
      if (error !== undefined) {
        record.outcome = 'threw';
        throw error;
      }
      const result = this.#options.result;
      const output =
        typeof result === 'function' ? result(input, context) : (result ?? `${this.name} ok`);
      record.outcome = typeof output !== 'string' && output.isError === true ? 'error' : 'ok';
      return output;
    } catch (error) {
      if (context.signal.aborted && record.outcome === 'running') record.outcome = 'aborted';
      throw error;
    } finally {
      this.#live -= 1;
      record.endedAt = now();
    }
  }
}
