import { accessesOf, type PlanNode } from '@toolwaves/planner';
import { type Strategy, streamEnd, type TurnView } from './strategy.js';

/** Claude Code's cap on tool calls running at once. */
const CLAUDE_CODE_MAX_CONCURRENCY = 10;

/** A call the peers run in parallel: concurrency-safe and only reads (keyless counts). */
export function isReadOnly(node: PlanNode): boolean {
  return node.parallelizable && accessesOf(node).every((access) => access.mode === 'read');
}

const arrivals = (turn: TurnView) => turn.nodes.map((_, call) => turn.arrivalMs?.[call] ?? 0);
const free = (node: PlanNode): PlanNode => ({ index: node.index, parallelizable: true });

/** AI SDK ≤ 6 `streamText`, OpenAI Agents without a cap: every call on arrival, no control. */
export function allAtOnceStrategy(): Strategy {
  return {
    name: 'all-at-once',
    description:
      'AI SDK ≤ 6 streamText, OpenAI Agents without a cap: every call starts on arrival, no cap, no conflict control (conflicting overlaps counted).',
    execute: (turn) => ({
      kind: 'eager',
      nodes: turn.nodes.map(free),
      arrivalMs: arrivals(turn),
      maxConcurrency: Math.max(1, turn.nodes.length),
    }),
  };
}

/** AI SDK 7, LangGraph `ToolNode`: waits for the whole step, then starts every call at once. */
export function waitThenAllAtOnceStrategy(): Strategy {
  return {
    name: 'wait-then-all-at-once',
    description:
      'AI SDK 7, LangGraph ToolNode: waits for the whole step, then starts every call at once, no cap, no conflict control (conflicting overlaps counted).',
    execute: (turn) => ({
      kind: 'eager',
      nodes: turn.nodes.map(free),
      arrivalMs: turn.nodes.map(() => streamEnd(turn)),
      maxConcurrency: Math.max(1, turn.nodes.length),
    }),
  };
}

/**
 * Claude Code's partition: consecutive read-only calls together (cap 10), every other call alone.
 */
export function consecutiveReadOnlyStrategy(): Strategy {
  return {
    name: 'consecutive-read-only',
    description: `Claude Code: consecutive read-only calls run together (cap ${CLAUDE_CODE_MAX_CONCURRENCY}), every other call alone, in order; streamed, read-only calls start on arrival, the others after the stream.`,
    execute: (turn) => ({
      kind: 'eager',
      nodes: turn.nodes.map((node) => ({ index: node.index, parallelizable: isReadOnly(node) })),
      arrivalMs: turn.nodes.map((node, call) =>
        isReadOnly(node) ? (turn.arrivalMs?.[call] ?? 0) : streamEnd(turn),
      ),
      maxConcurrency: CLAUDE_CODE_MAX_CONCURRENCY,
    }),
  };
}

/** Codex's pattern: one read/write lock for the turn, capped or not. */
export function globalRwLockStrategy(options: { readonly capped?: boolean } = {}): Strategy {
  const capped = options.capped === true;
  return {
    name: capped ? 'global-rw-lock-capped' : 'global-rw-lock',
    description: `Codex: one fair read/write lock, read-only calls shared, every other call exclusive, calls start on arrival${capped ? ', at most `maxConcurrency` at once' : ', no cap'}.`,
    execute: (turn) => ({
      kind: 'eager',
      nodes: turn.nodes.map((node) => ({
        index: node.index,
        parallelizable: true,
        access: [{ key: 'turn-lock', mode: isReadOnly(node) ? 'read' : 'write' }],
      })),
      arrivalMs: arrivals(turn),
      maxConcurrency: capped ? turn.maxConcurrency : Math.max(1, turn.nodes.length),
    }),
  };
}
