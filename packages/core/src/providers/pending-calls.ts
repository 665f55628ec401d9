import { MalformedArguments } from '../malformed-arguments.js';
import type { ToolCall } from '../tool-call.js';

/** Why a call still open when its stream ended cannot be run. */
const INCOMPLETE = 'the stream ended before the arguments were complete';

interface PendingCall {
  readonly position: number;
  id: string;
  name: string;
  arguments: string;
  /** The input the call started with, used when no argument text ever arrives. */
  readonly startInput: unknown;
  input: unknown;
  complete: boolean;
}

/**
 * The calls of one streamed turn while their arguments are being written: started by a
 * provider key, their argument text appended piece by piece, completed, and handed out in model
 * order (by `position`) as soon as every call before them is complete too.
 */
export class PendingCalls {
  readonly #byKey = new Map<string | number, PendingCall>();
  /** Calls not handed out yet, by position. */
  readonly #waiting: PendingCall[] = [];

  /** Starts a call; a key seen before is ignored (the provider repeated the start). */
  start(
    key: string | number,
    call: {
      readonly position: number;
      readonly id: string;
      readonly name: string;
      readonly arguments?: string;
      readonly input?: unknown;
    },
  ): void {
    if (this.#byKey.has(key)) return;
    const pending: PendingCall = {
      position: call.position,
      id: call.id,
      name: call.name,
      arguments: call.arguments ?? '',
      startInput: call.input,
      input: undefined,
      complete: false,
    };
    this.#byKey.set(key, pending);
    const at = this.#waiting.findIndex((other) => other.position > call.position);
    this.#waiting.splice(at === -1 ? this.#waiting.length : at, 0, pending);
  }

  /** Whether a call with this key has started. */
  has(key: string | number): boolean {
    return this.#byKey.has(key);
  }

  /** Sets the id or name of an open call when the provider sends them late. */
  update(key: string | number, fields: { readonly id?: string; readonly name?: string }): void {
    const pending = this.#open(key);
    if (pending === undefined) return;
    if (fields.id !== undefined && fields.id !== '') pending.id = fields.id;
    if (fields.name !== undefined && fields.name !== '') pending.name = fields.name;
  }

  /** Appends argument text to an open call. */
  append(key: string | number, text: string): void {
    const pending = this.#open(key);
    if (pending !== undefined) pending.arguments += text;
  }

  /** The argument text of an open call so far (`undefined` when it is not open). */
  argumentsOf(key: string | number): string | undefined {
    return this.#open(key)?.arguments;
  }

  /** The keys of the calls still open. */
  openKeys(): (string | number)[] {
    return [...this.#byKey].filter(([, call]) => !call.complete).map(([key]) => key);
  }

  /**
   * Completes an open call, with its final argument text when the provider sends it whole.
   * Text that does not parse becomes a {@link MalformedArguments} input.
   */
  complete(key: string | number, finalArguments?: string): void {
    const pending = this.#open(key);
    if (pending === undefined) return;
    if (finalArguments !== undefined) pending.arguments = finalArguments;
    pending.input =
      pending.arguments.trim() === '' && pending.startInput !== undefined
        ? pending.startInput
        : MalformedArguments.parse(pending.arguments);
    pending.complete = true;
  }

  /** Completes every open call with the text it has (the provider said the turn is over). */
  completeAll(): void {
    for (const key of this.openKeys()) this.complete(key);
  }

  /**
   * Every call still open becomes a call whose input says its arguments were cut off, so the
   * dispatcher answers it with a soft error instead of running half-written arguments.
   */
  abandonAll(): void {
    for (const pending of this.#byKey.values()) {
      if (pending.complete) continue;
      pending.input = new MalformedArguments({ raw: pending.arguments, reason: INCOMPLETE });
      pending.complete = true;
    }
  }

  /** The complete calls whose predecessors are all handed out, in model order; each once. */
  take(): ToolCall[] {
    const ready: ToolCall[] = [];
    while (this.#waiting[0]?.complete === true) {
      const pending = this.#waiting.shift() as PendingCall;
      ready.push({ id: pending.id, name: pending.name, input: pending.input });
    }
    return ready;
  }

  #open(key: string | number): PendingCall | undefined {
    const pending = this.#byKey.get(key);
    return pending === undefined || pending.complete ? undefined : pending;
  }
}
