import {
  field,
  list,
  type Trace,
  type TraceCall,
  type TraceRecord,
  type TraceTurn,
  text,
  traceError,
} from './trace.js';

interface OpenTurn {
  model?: string;
  parentCallId?: string;
  calls: { call: TraceCall; askedAt?: number }[];
}

/** Claude Code `stream-json` events or session `.jsonl`: a turn per `message.id`. */
export function parseClaudeCode(
  records: readonly TraceRecord[],
  skipped: readonly string[],
): Trace {
  const turns = new Map<string, OpenTurn>();
  const byCall = new Map<string, { turn: OpenTurn; slot: number }>();
  let cwd: string | undefined;
  let model: string | undefined;
  for (const { where, value } of records) {
    const type = text(value, 'type');
    const stamp = Date.parse(text(value, 'timestamp') ?? '');
    if (type === 'system' && text(value, 'subtype') === 'init') {
      cwd ??= text(value, 'cwd');
      model ??= text(value, 'model');
    } else if (type === 'assistant') {
      const message = field(value, 'message');
      if (!Array.isArray(field(message, 'content'))) {
        throw traceError({
          where,
          expected: "an assistant event's `message.content` to be a list of blocks",
          got: JSON.stringify(field(message, 'content')) ?? 'nothing',
        });
      }
      const id = text(message, 'id') ?? where;
      for (const block of list(message, 'content')) {
        if (text(block, 'type') !== 'tool_use') continue;
        let turn = turns.get(id);
        if (turn === undefined) {
          const parent = text(value, 'parent_tool_use_id');
          const named = text(message, 'model') ?? model;
          turn = {
            calls: [],
            ...(named === undefined ? {} : { model: named }),
            ...(parent === undefined ? {} : { parentCallId: parent }),
          };
          turns.set(id, turn);
        }
        const call: TraceCall = {
          id: text(block, 'id') ?? `${where}#${turn.calls.length}`,
          name: text(block, 'name') ?? '(unnamed)',
          input: field(block, 'input') ?? {},
          isError: false,
        };
        byCall.set(call.id, { turn, slot: turn.calls.length });
        turn.calls.push({ call, ...(Number.isNaN(stamp) ? {} : { askedAt: stamp }) });
        // Every call of a turn waits for its last block: the latest stamp counts.
        if (!Number.isNaN(stamp)) for (const entry of turn.calls) entry.askedAt = stamp;
      }
    } else if (type === 'user') {
      for (const block of list(field(value, 'message'), 'content')) {
        const found = byCall.get(text(block, 'tool_use_id') ?? '');
        if (text(block, 'type') !== 'tool_result' || found === undefined) continue;
        const entry = found.turn.calls[found.slot]!;
        const durationMs =
          reportedDuration(field(value, 'tool_use_result') ?? field(value, 'toolUseResult')) ??
          (entry.askedAt === undefined || Number.isNaN(stamp)
            ? undefined
            : Math.max(0, stamp - entry.askedAt));
        entry.call = {
          ...entry.call,
          isError: field(block, 'is_error') === true,
          ...(durationMs === undefined ? {} : { durationMs }),
        };
      }
    }
  }
  const done: TraceTurn[] = [...turns.values()].map(({ calls, ...rest }) => ({
    ...rest,
    calls: calls.map((entry) => entry.call),
  }));
  return { format: 'claude-code', cwd: cwd ?? '/workspace', turns: done, skipped };
}

function reportedDuration(result: unknown): number | undefined {
  for (const name of ['durationMs', 'totalDurationMs']) {
    const ms = field(result, name);
    if (typeof ms === 'number' && ms >= 0) return ms;
  }
  const seconds = field(result, 'durationSeconds');
  return typeof seconds === 'number' && seconds >= 0 ? seconds * 1000 : undefined;
}
