import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_TOOLWAVES_CALL_ATTEMPT,
  ATTR_TOOLWAVES_CALL_FLEET_WAIT_MS,
  ATTR_TOOLWAVES_CALL_INDEX,
  ATTR_TOOLWAVES_CALL_KEY_WAIT_MS,
  ATTR_TOOLWAVES_CALL_WAITED_FOR,
  ATTR_TOOLWAVES_DISPATCH_CALL_COUNT,
  ATTR_TOOLWAVES_DISPATCH_MODE,
  ATTR_TOOLWAVES_DISPATCH_OUTCOME,
  ATTR_TOOLWAVES_DISPATCH_PLANNER,
  ATTR_TOOLWAVES_DISPATCH_SOURCE,
  ATTR_TOOLWAVES_DISPATCH_WAVES,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  SPAN_NAME_TOOLWAVES_DISPATCH,
} from '@toolwaves/otel';

/** Options of {@link formatSpanTree}. */
export interface SpanTreeOptions {
  /** Finished spans, in any order (children find their parents by span id). */
  readonly spans: readonly ReadableSpan[];
  /** Characters of each call's timeline bar (its dispatch's duration). Default 24. */
  readonly barWidth?: number;
  /**
   * How to name each call, by its id (`gen_ai.tool.call.id`): the demo gives the names of its
   * live view (`#2.3`). A call without one is named by its id.
   */
  readonly labels?: ReadonlyMap<string, string>;
}

/**
 * The spans as an indented tree, one line each: what it is, when it started (ms after the first
 * root), how long it took; a call's line says what it waited for and how long, and draws its
 * dispatch's time as a bar (`░` waiting, `█` running).
 *
 * @example
 * ```ts
 * for (const line of formatSpanTree({ spans: exporter.getFinishedSpans() })) console.log(line);
 * // dispatch · eager, stream, 3 calls                    +0 ms   200 ms
 * // ├─ execute_tool edit_file call_2 · waited 100 ms for call_0   +100 ms  100 ms  ░░░░████
 * ```
 */
export function formatSpanTree(options: SpanTreeOptions): string[] {
  const { spans } = options;
  const barWidth = options.barWidth ?? 24;
  const labels = options.labels ?? new Map<string, string>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const order = (span: ReadableSpan) => Number(span.attributes[ATTR_TOOLWAVES_CALL_INDEX] ?? 0);
  for (const list of children.values()) {
    list.sort((a, b) => msOf(a.startTime) - msOf(b.startTime) || order(a) - order(b));
  }
  const roots = children.get(undefined) ?? [];
  const origin = Math.min(...roots.map((span) => msOf(span.startTime)));
  const rows: { label: string; times: string; bar: string }[] = [];
  const walk = (span: ReadableSpan, lead: string, branch: string, parent?: ReadableSpan) => {
    const startMs = msOf(span.startTime) - origin;
    rows.push({
      label: `${lead}${branch}${describe(span, labels)}`,
      times: `${`+${Math.round(startMs)} ms`.padStart(9)} ${`${Math.round(msOf(span.duration))} ms`.padStart(8)}`,
      bar: parent !== undefined && isCall(span) ? `  ${timeline(span, parent, barWidth)}` : '',
    });
    const below = children.get(span.spanContext().spanId) ?? [];
    const nextLead = lead + (branch === '' ? '' : branch === '├─ ' ? '│  ' : '   ');
    for (const [i, child] of below.entries()) {
      walk(child, nextLead, i === below.length - 1 ? '└─ ' : '├─ ', span);
    }
  };
  for (const root of roots) walk(root, '', '');
  const width = Math.max(0, ...rows.map((row) => row.label.length));
  return rows.map((row) => `${row.label.padEnd(width)} ${row.times}${row.bar}`.trimEnd());
}

function describe(span: ReadableSpan, labels: ReadonlyMap<string, string>): string {
  const name = (id: unknown) => labels.get(String(id)) ?? String(id);
  const a = span.attributes;
  if (span.name === SPAN_NAME_TOOLWAVES_DISPATCH) {
    const parts = [
      String(a[ATTR_TOOLWAVES_DISPATCH_MODE]),
      String(a[ATTR_TOOLWAVES_DISPATCH_SOURCE]),
      ...(a[ATTR_TOOLWAVES_DISPATCH_PLANNER] === undefined
        ? []
        : [String(a[ATTR_TOOLWAVES_DISPATCH_PLANNER])]),
      `${a[ATTR_TOOLWAVES_DISPATCH_CALL_COUNT]} calls`,
      ...(a[ATTR_TOOLWAVES_DISPATCH_WAVES] === undefined
        ? []
        : [`${a[ATTR_TOOLWAVES_DISPATCH_WAVES]} waves`]),
    ];
    const outcome = a[ATTR_TOOLWAVES_DISPATCH_OUTCOME];
    return `dispatch · ${parts.join(', ')}${outcome === 'ok' ? '' : ` · ${String(outcome)}`}`;
  }
  if (!isCall(span)) return span.name;
  const notes: string[] = [];
  const attempt = Number(a[ATTR_TOOLWAVES_CALL_ATTEMPT] ?? 1);
  if (attempt > 1) notes.push(`attempt ${attempt}`);
  const keyWait = Number(a[ATTR_TOOLWAVES_CALL_KEY_WAIT_MS] ?? 0);
  const waitedFor = (a[ATTR_TOOLWAVES_CALL_WAITED_FOR] as readonly string[] | undefined) ?? [];
  if (keyWait > 0 || waitedFor.length > 0) {
    notes.push(
      `waited ${Math.round(keyWait)} ms${waitedFor.length === 0 ? '' : ` for ${waitedFor.map(name).join(', ')}`}`,
    );
  }
  const fleetWait = Number(a[ATTR_TOOLWAVES_CALL_FLEET_WAIT_MS] ?? 0);
  if (fleetWait > 0) notes.push(`fleet ${Math.round(fleetWait)} ms`);
  if (a[ATTR_ERROR_TYPE] !== undefined) notes.push(`✗ ${String(a[ATTR_ERROR_TYPE])}`);
  const title = `${span.name} ${name(a[ATTR_GEN_AI_TOOL_CALL_ID])}`;
  return notes.length === 0 ? title : `${title} · ${notes.join(' · ')}`;
}

const isCall = (span: ReadableSpan): boolean =>
  span.attributes[ATTR_GEN_AI_OPERATION_NAME] === GEN_AI_OPERATION_EXECUTE_TOOL;

/** The call's wait (`░`) and run (`█`) over its dispatch's time, `width` characters. */
function timeline(span: ReadableSpan, dispatch: ReadableSpan, width: number): string {
  const from = msOf(dispatch.startTime);
  const total = Math.max(msOf(dispatch.duration), 1);
  const at = (ms: number) =>
    Math.min(width, Math.max(0, Math.round(((ms - from) / total) * width)));
  const start = msOf(span.startTime);
  const waited =
    Number(span.attributes[ATTR_TOOLWAVES_CALL_KEY_WAIT_MS] ?? 0) +
    Number(span.attributes[ATTR_TOOLWAVES_CALL_FLEET_WAIT_MS] ?? 0);
  const waitFrom = at(start - waited);
  const runFrom = at(start);
  const runTo = Math.max(at(start + msOf(span.duration)), runFrom + 1);
  return (
    ' '.repeat(waitFrom) +
    '░'.repeat(runFrom - waitFrom) +
    '█'.repeat(Math.min(width, runTo) - runFrom)
  ).padEnd(width);
}

const msOf = (time: readonly [number, number]): number => time[0] * 1000 + time[1] / 1e6;
