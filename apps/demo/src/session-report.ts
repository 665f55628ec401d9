import type { SessionRecord } from './agent-loop.js';
import type { CliOptions } from './cli-options.js';
import type { ComparisonRow } from './compare-planners.js';
import type { StreamingRow } from './compare-streaming.js';
import { callLabel } from './describe-call.js';
import type { SessionWorkspace } from './sample-workspace.js';

/** The demo's machine-readable report (`--json`). */
export interface SessionReport {
  readonly model: string;
  readonly planner: string;
  readonly mode: string;
  readonly stream: boolean;
  readonly tokensPerSecond: number;
  readonly maxConcurrency: number;
  readonly latency: number;
  readonly workspace: string;
  readonly turns: readonly {
    readonly turn: number;
    readonly text: string | undefined;
    /** The waves of a whole turn; empty for a streamed turn. */
    readonly waves: readonly (readonly number[])[];
    readonly wallMs: number;
    readonly writingMs: number;
    readonly latencyMs: number;
    readonly afterWritingMs: number;
    readonly calls: readonly {
      /** The call's name in the live view and the printed trace: `#2.3`, call 3 of turn 2. */
      readonly call: string;
      /** The model's id of the call (the trace's `gen_ai.tool.call.id`). */
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
      /** The call's wave in a whole turn; -1 in a streamed turn. */
      readonly wave: number;
      readonly reason: string | undefined;
      readonly isError: boolean;
      readonly durationMs: number;
      readonly content: string;
    }[];
  }[];
  readonly finalText: string | undefined;
  readonly wallMs: number;
  readonly comparison: readonly ComparisonRow[];
  /** Whole turn + greedy waves against streamed + eager, measured side by side. */
  readonly streaming: readonly StreamingRow[];
}

/** Builds the `--json` report from a finished session: pure, nothing printed. */
export function sessionReport(options: {
  options: CliOptions;
  model: string;
  workspace: SessionWorkspace;
  session: SessionRecord;
  comparison: readonly ComparisonRow[];
  streaming: readonly StreamingRow[];
}): SessionReport {
  const { session, workspace } = options;
  return {
    model: options.model,
    planner: options.options.planner,
    mode: options.options.mode,
    stream: options.options.stream,
    tokensPerSecond: options.options.tokensPerSecond,
    maxConcurrency: options.options.maxConcurrency,
    latency: options.options.latency,
    workspace: workspace.dir === '.' ? workspace.root : `${workspace.root}/${workspace.dir}`,
    turns: session.turns.map((turn) => ({
      turn: turn.turn,
      text: turn.text,
      waves: turn.plan?.waves.map((wave) => wave.calls) ?? [],
      wallMs: turn.wallMs,
      writingMs: turn.writingMs,
      latencyMs: turn.latencyMs,
      afterWritingMs: turn.afterWritingMs,
      calls: turn.calls.map((call, index) => {
        const result = turn.results[index];
        const explanation = turn.explanation[index];
        return {
          call: callLabel({ turn: turn.turn, index }),
          id: call.id,
          name: call.name,
          input: call.input,
          wave:
            explanation?.wave ??
            turn.plan?.waves.findIndex((wave) => wave.calls.includes(index)) ??
            -1,
          reason: explanation?.reason,
          isError: result?.isError ?? true,
          durationMs: result?.durationMs ?? 0,
          content: result?.content ?? '',
        };
      }),
    })),
    finalText: session.finalText,
    wallMs: session.wallMs,
    comparison: options.comparison,
    streaming: options.streaming,
  };
}
