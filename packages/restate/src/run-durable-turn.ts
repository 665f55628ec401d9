import { type Context, TerminalError } from '@restatedev/restate-sdk';
import type {
  Coordinator,
  Tool,
  ToolCall,
  ToolContext,
  ToolOutput,
  ToolResult,
  WhileStreaming,
} from '@toolwaves/core';
import { checkOption, checkOptions } from '@toolwaves/core/internal';
import { durableExecute } from './durable-execute.js';
import { JournalDriver } from './journal-driver.js';
import { CONTEXT_RULE, invalidOptions, RESTATE_OPTION_RULES } from './restate-option-rules.js';

/** The part of a toolwaves `Dispatcher` a durable turn uses (`dispatcher.openTurn()`). */
export interface TurnOpener {
  openTurn(options?: { readonly whileStreaming?: WhileStreaming }): {
    run(
      call: ToolCall,
      execute?: (
        input: unknown,
        context: ToolContext,
      ) => Promise<string | ToolOutput> | string | ToolOutput,
    ): Promise<ToolResult>;
    close(): Promise<void>;
  };
}

/** Options of {@link runDurableTurn}. */
export interface DurableTurnOptions {
  /** The Dispatcher that schedules the calls (mode, cap, failure policy...). */
  readonly dispatcher: TurnOpener;
  /** Where the calls' tools are found: the Dispatcher's registry. */
  readonly registry: { get(name: string): Tool | undefined };
  /** The calls of the turn, in model order (from a journaled model call). */
  readonly calls: readonly ToolCall[];
  /**
   * Names the turn in `ToolContext.idempotencyKey` (`<turn id>/<call id>/<attempt>`). Default:
   * the invocation id; give each turn its own id when one invocation runs several turns whose
   * call ids may repeat.
   */
  readonly turnId?: string;
  /**
   * A fleet coordinator (`redisCoordinator` of `@toolwaves/redis`): every run of a tool holds its
   * accesses fleet-wide, its fencing token in `ToolContext.fencingToken`. Give it here, not to
   * the Dispatcher: the grant is asked inside the call's journaled step, so a finished call
   * replays without asking and a re-run asks again and gets a newer token.
   */
  readonly coordinator?: Coordinator;
}

/**
 * Runs the tool calls of one model turn inside a Restate handler: each attempt of each call is a
 * journaled step (`ctx.run`), scheduled by the Dispatcher's rules, and the results come back in
 * model order. When the invocation is replayed after a crash, finished calls answer from the
 * journal without running and the scheduler makes the same decisions; unfinished calls run
 * again if they may (`idempotent: true` or read-only), else answer "outcome unknown".
 *
 * @example
 * ```ts
 * const agent = restate.service({
 *   name: 'agent',
 *   handlers: {
 *     turn: async (ctx: restate.Context, calls: ToolCall[]) =>
 *       runDurableTurn(ctx, { dispatcher, registry, calls }),
 *   },
 * });
 * ```
 * @throws RestateTurnError `invalid_options` for bad options (an unknown key, with a "did you
 *   mean" for a near miss; a wrong type, naming the field and the value) or a `ctx` that is not
 *   a Restate Context; a `TerminalError` for the turn's hard error (a hook's abort, recovery
 *   exhausted: a replay would decide the same).
 */
export async function runDurableTurn(
  ctx: Context,
  options: DurableTurnOptions,
): Promise<ToolResult[]> {
  const { dispatcher, registry, calls } = checkArguments(ctx, options);
  const turnId = options.turnId ?? ctx.request().id;
  const driver = new JournalDriver(ctx);
  const durations = new Map<string, number>();
  // The turn's calls are a finished message, all handed over before close(): nothing to hold
  // back, and each call starts as the rules allow, in the order it always did.
  const turn = dispatcher.openTurn({ whileStreaming: 'all' });
  const results = calls.map((call) =>
    turn.run(
      call,
      durableExecute({
        driver,
        call,
        tool: registry.get(call.name),
        turnId,
        coordinator: options.coordinator,
        durations,
      }),
    ),
  );
  const answered = Promise.all(results);
  // On a hard error every call rejects with it; the error is thrown once, from close() below.
  answered.catch(() => undefined);
  const closed = turn.close();
  await driver.drive(closed);
  await closed.catch((error: unknown) => {
    if (error instanceof TerminalError) throw error;
    // The turn's hard error (a hook's abort, recovery exhausted) follows from journaled results
    // alone: a replay would decide it again, so Restate must not retry the invocation for it.
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    throw new TerminalError(
      `The turn failed${typeof code === 'string' ? ` (${code})` : ''}: ${message}`,
      {
        metadata: typeof code === 'string' ? { code } : {},
      },
    );
  });
  // Durations as journaled (0 for a call whose tool never ran): the same on every replay.
  return (await answered).map((result) => ({
    ...result,
    durationMs: durations.get(result.toolCallId) ?? 0,
  }));
}

/** The options as every toolwaves package checks them (core's checker), then the context. */
function checkArguments(ctx: Context, options: DurableTurnOptions): DurableTurnOptions {
  const { dispatcher, registry, calls, turnId, coordinator } = RESTATE_OPTION_RULES;
  checkOptions({
    subject: 'runDurableTurn',
    options,
    rules: { dispatcher, registry, calls, turnId, coordinator },
    required: ['dispatcher', 'registry', 'calls'],
    error: invalidOptions,
  });
  checkOption({ name: 'ctx', value: ctx, rule: CONTEXT_RULE, error: invalidOptions });
  return options;
}
