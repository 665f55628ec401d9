import { appendFileSync } from 'node:fs';
import type { Tool } from '@toolwaves/core';
import { type Marker, STARTED_PREFIX } from './agent-config.js';

/**
 * Wraps a tool so that it appends a `start` marker to the shared log when it begins (after its
 * fleet grant) and an `end` marker when it is done. Appends to one file are ordered by the
 * kernel, so the log's line order is the real order of starts and ends across processes.
 */
export function markedTool(
  inner: Tool,
  options: { agent: string; log: string; holdMs: number; holdAfterMs?: number | undefined },
): Tool {
  const mark = (
    call: string,
    phase: Marker['phase'],
    input: unknown,
    token: number | undefined,
  ) => {
    const marker: Marker = {
      agent: options.agent,
      call,
      tool: inner.name,
      phase,
      access: inner.access?.(input) ?? [],
      token: token ?? null,
    };
    appendFileSync(options.log, `${JSON.stringify(marker)}\n`);
  };
  return {
    name: inner.name,
    description: inner.description,
    ...(inner.input === undefined ? {} : { input: inner.input }),
    ...(inner.isConcurrencySafe === undefined
      ? {}
      : { isConcurrencySafe: (input: unknown) => inner.isConcurrencySafe?.(input) ?? false }),
    ...(inner.access === undefined
      ? {}
      : { access: (input: unknown) => inner.access?.(input) ?? [] }),
    async execute(input, context) {
      mark(context.toolCallId, 'start', input, context.fencingToken);
      process.stdout.write(`${STARTED_PREFIX}${context.toolCallId}\n`);
      if (options.holdMs > 0) await new Promise((resolve) => setTimeout(resolve, options.holdMs));
      const output = await inner.execute(input, context);
      const after = options.holdAfterMs ?? 0;
      if (after > 0) await new Promise((resolve) => setTimeout(resolve, after));
      mark(context.toolCallId, 'end', input, context.fencingToken);
      return output;
    },
  };
}
