import type { PlanNode, PreviousEdgeSource } from '@toolwaves/planner';
import { describeValue } from './describe-value.js';
import type { Tool } from './tool.js';
import type { ToolCall } from './tool-call.js';
import { ToolwavesError } from './toolwaves-error.js';

/** Options of {@link CallEdges}. */
export interface CallEdgesOptions {
  /** The turn's calls in model order; a stream's grow as its calls arrive. */
  readonly calls: readonly ToolCall[];
  /**
   * The whole turn is known (a batch): an id of a later call is refused as such, or as a cycle
   * when that call names this one back. Default `false` (a stream: later calls are unknown).
   */
  readonly whole?: boolean;
}

/** The plan-node fields of a call's ordering edges (see {@link CallEdges.of}). */
export type EdgeFields = Pick<PlanNode, 'after' | 'afterPrevious'>;

/**
 * The ordering edges of the calls of one turn, resolved one call at a time in model order:
 * `ToolCall.after` ids become the positions of the earlier calls they name. Ids are indexed
 * only once some call has an `after` list, so turns without one pay nothing. With several
 * calls of one id, `after` names the first (the others are never run).
 *
 * @example
 * const edges = new CallEdges({ calls, whole: true });
 * edges.after(2); // [0]: calls[2].after is ['call_a'], the id of calls[0]
 * @see edgeFields
 */
export class CallEdges {
  readonly #calls: readonly ToolCall[];
  readonly #whole: boolean;
  readonly #positions = new Map<string, number>();
  /** Calls up to here are in `#positions`. */
  #indexed = 0;

  constructor(options: CallEdgesOptions) {
    this.#calls = options.calls;
    this.#whole = options.whole === true;
  }

  /**
   * The positions of the earlier calls `calls[index].after` names, ascending, without repeats;
   * `undefined` when it names none.
   *
   * @throws ToolwavesError `invalid_call` naming the call and the id, when `after` is not an
   *   array of strings or names an id no earlier call has (its own, a later call's, unknown).
   */
  after(index: number): number[] | undefined {
    const call = this.#calls[index]!;
    const after: unknown = call.after;
    if (after === undefined) return undefined;
    const which = `call \`${call.id}\` (call ${index}, \`${String(call.name)}\`)`;
    if (!Array.isArray(after)) {
      throw invalidCall(
        `Expected \`after\` of ${which} to be an array of call ids, got ${describeValue(after)}`,
      );
    }
    this.#indexUpTo(index);
    const positions = new Set<number>();
    for (const id of after as unknown[]) {
      if (typeof id !== 'string') {
        throw invalidCall(
          `Expected \`after\` of ${which} to list call ids (strings), got ${describeValue(id)}`,
        );
      }
      const position = this.#positions.get(id);
      if (position === undefined) throw invalidCall(this.#missing(which, index, id));
      positions.add(position);
    }
    if (positions.size === 0) return undefined;
    return [...positions].sort((a, b) => a - b);
  }

  #indexUpTo(index: number): void {
    for (; this.#indexed < index; this.#indexed++) {
      const { id } = this.#calls[this.#indexed]!;
      if (!this.#positions.has(id)) this.#positions.set(id, this.#indexed);
    }
  }

  /** Why `id` cannot be followed: this call's own id, a later call's (a cycle?), or unknown. */
  #missing(which: string, index: number, id: string): string {
    const calls = this.#calls;
    if (calls[index]!.id === id)
      return `${which} names itself in \`after\`: a call cannot follow itself`;
    const rule = 'a call may only follow calls written before it in the turn';
    if (this.#whole) {
      const later = calls.findIndex((other, position) => position > index && other.id === id);
      if (later !== -1) {
        const back = cycleBack(calls, later, calls[index]!.id);
        return back === undefined
          ? `${which} names \`${id}\` in \`after\`, a later call of the turn (call ${later}): ${rule}`
          : `${which} names \`${id}\` in \`after\`, and the edges form a cycle (${[calls[index]!.id, ...back].map((step) => `\`${step}\``).join(' → ')}): ${rule}`;
      }
    }
    return `${which} names \`${id}\` in \`after\`, which no earlier call of the turn has: ${rule}`;
  }
}

/** The ids from call `from` back to `target` through `after` lists, if there is such a path. */
function cycleBack(calls: readonly ToolCall[], from: number, target: string): string[] | undefined {
  const byId = new Map<string, ToolCall>();
  for (const call of calls) if (!byId.has(call.id)) byId.set(call.id, call);
  const seen = new Set<string>();
  const walk = (call: ToolCall): string[] | undefined => {
    if (seen.has(call.id)) return undefined;
    seen.add(call.id);
    for (const id of Array.isArray(call.after) ? call.after : []) {
      if (id === target) return [call.id, id];
      const next = byId.get(id);
      const path = next === undefined ? undefined : walk(next);
      if (path !== undefined) return [call.id, ...path];
    }
    return undefined;
  };
  return walk(calls[from]!);
}

/** Options of {@link edgeFields}. */
export interface EdgeFieldsOptions {
  /** What {@link CallEdges.after} answered for the call. */
  readonly after: readonly number[] | undefined;
  /** The call's tool, if known: `runs: 'after-previous'` makes it follow every earlier call. */
  readonly tool: Tool | undefined;
  /** The model set `wait_for_previous: true` on the call (with `modelOrdering`). */
  readonly waitForPrevious: boolean;
}

/**
 * A call's ordering edges as plan-node fields: `after` positions, and `afterPrevious` when its
 * tool runs after the previous calls (named `'after-previous'`, which wins) or the model asked
 * (`'wait_for_previous'`); `undefined` when it has none.
 */
export function edgeFields(options: EdgeFieldsOptions): EdgeFields | undefined {
  const { after, tool, waitForPrevious } = options;
  const previous: PreviousEdgeSource | undefined =
    tool?.runs === 'after-previous'
      ? 'after-previous'
      : waitForPrevious
        ? 'wait_for_previous'
        : undefined;
  if (after === undefined && previous === undefined) return undefined;
  const fields: { after?: readonly number[]; afterPrevious?: PreviousEdgeSource } = {};
  if (after !== undefined) fields.after = after;
  if (previous !== undefined) fields.afterPrevious = previous;
  return fields;
}

function invalidCall(message: string): ToolwavesError {
  return new ToolwavesError({ code: 'invalid_call', message });
}
