import type { ToolCall, ToolResult } from '@toolwaves/core';
import type { EdgeSource } from '@toolwaves/planner';

/** What a batch does after a soft error, option `onFailure` (README: Failure policy). */
export type FailurePolicy = 'continue' | 'skip-dependents' | 'stop';

/** Why a call was not run, for its `call-skipped` event and its answer. */
export interface SkipVerdict {
  readonly reason: 'dependency-failed' | 'stopped';
  /** The call whose soft error caused it. */
  readonly failedCallId: string;
  /** The soft error the call is answered with. */
  readonly content: string;
}

/** Options of {@link FailureGate}. */
export interface FailureGateOptions {
  readonly policy: FailurePolicy;
  /** The batch's calls (a stream's grow as they arrive). */
  readonly calls: readonly ToolCall[];
  /** The earlier calls call `index` depends on (rules 4 and 5), for `'skip-dependents'`. */
  readonly dependenciesOf: (index: number) => readonly number[];
  /** Whether call `index` follows the earlier call `earlier` by an ordering edge, and why. */
  readonly edgeOf?: ((index: number, earlier: number) => EdgeSource | undefined) | undefined;
}

// The failure policy of one batch: told each call's final answer, it says whether a call whose
// turn has come must be skipped, and why.
export class FailureGate {
  readonly #options: FailureGateOptions;
  /** Per call: the index of the failed call it stands for (itself when it failed), if any. */
  readonly #failedRoot: (number | undefined)[] = [];
  #firstFailure: number | undefined;

  constructor(options: FailureGateOptions) {
    this.#options = options;
  }

  /** Call `index` was answered for good (not a retry). */
  answered(index: number, result: ToolResult): void {
    if (!result.isError || this.#options.policy === 'continue') return;
    this.#failedRoot[index] ??= index;
    this.#firstFailure ??= index;
  }

  /** Whether call `index`, whose turn to start has come, must be skipped instead, and why. */
  verdict(index: number): SkipVerdict | undefined {
    const policy = this.#options.policy;
    if (policy === 'continue') return undefined;
    const call = this.#options.calls[index]!;
    const which = `Call \`${call.id}\` (\`${String(call.name)}\`) did not run`;
    if (policy === 'stop') {
      const first = this.#firstFailure;
      if (first === undefined) return undefined;
      const failed = this.#options.calls[first]!;
      return {
        reason: 'stopped',
        failedCallId: failed.id,
        content: `${which}: call \`${failed.id}\` (\`${String(failed.name)}\`) failed first, and the failure policy is 'stop'`,
      };
    }
    for (const dependency of this.#options.dependenciesOf(index)) {
      const root = this.#failedRoot[dependency];
      if (root === undefined) continue;
      this.#failedRoot[index] = root;
      const failed = this.#options.calls[root]!;
      const through =
        root === dependency ? '' : ` (through call \`${this.#options.calls[dependency]!.id}\`)`;
      // Named by the edge when there is one: it follows the failed call (or the one between).
      const edge = this.#options.edgeOf?.(index, root) ?? this.#options.edgeOf?.(index, dependency);
      const how = edge === undefined ? 'depends on' : `follows (\`${edge}\`)`;
      return {
        reason: 'dependency-failed',
        failedCallId: failed.id,
        content: `${which}: it ${how} call \`${failed.id}\` (\`${String(failed.name)}\`)${through}, which failed`,
      };
    }
    return undefined;
  }
}
