import type { ToolCall } from '@toolwaves/core';
import type { DispatchEvent } from '@toolwaves/executor-rx';
import type { CallWritten } from './agent-loop.js';
import { callLabel, describeCall } from './describe-call.js';
import type { TurnWriting } from './model.js';
import type { TerminalStyle } from './terminal-style.js';

/** Options of {@link LiveView}. */
export interface LiveViewOptions {
  readonly write: (line: string) => void;
  readonly style: TerminalStyle;
  /** The workspace root, cut from access keys in the plan's reasons so they stay readable. */
  readonly root?: string;
}

/**
 * Shows a session as it happens: each turn's words, each call the moment the model has written
 * it, the plan (waves, and why each call waits) of a whole turn, every call starting and
 * finishing with its duration and the first line of its result, and at the end of each turn how
 * many calls were running at once at most. Calls are named by {@link callLabel} (`#2.3`).
 */
export class LiveView {
  readonly #write: (line: string) => void;
  readonly #style: TerminalStyle;
  readonly #root: string | undefined;
  #calls: ToolCall[] = [];
  #turn = 0;
  #waveCount = 0;
  #running = 0;
  #mostAtOnce = 0;

  constructor(options: LiveViewOptions) {
    this.#write = options.write;
    this.#style = options.style;
    this.#root = options.root;
  }

  /** The model finished writing a call (the first one opens the turn). */
  callWritten(written: CallWritten): void {
    const s = this.#style;
    if (written.index === 0) {
      this.#calls = [];
      this.#turn = written.turn;
      this.#write('');
      this.#write(
        s.bold(`Turn ${written.turn}`) +
          (written.writing.text ? ` · ${s.cyan(written.writing.text)}` : ''),
      );
    }
    this.#calls[written.index] = written.call;
    this.#write(
      `    ${s.cyan('✎')} ${this.#name(written.index)} ${describeCall(written.call)}` +
        s.dim(`  written at ${Math.round(written.atMs)} ms`),
    );
  }

  /** The model stopped writing the turn. */
  turnWritten(writing: TurnWriting, calls: readonly ToolCall[]): void {
    const took = (writing.endedAt ?? writing.startedAt) - writing.startedAt;
    this.#write(
      this.#style.dim(`  model done writing: ${calls.length} call(s) in ${Math.round(took)} ms`),
    );
  }

  /** One dispatch event. */
  event(event: DispatchEvent): void {
    const s = this.#style;
    switch (event.type) {
      case 'batch-start': {
        this.#running = 0;
        this.#mostAtOnce = 0;
        const plan = event.plan;
        // A streamed turn has no plan: each call shows when it is written and when it starts.
        if (plan === undefined) break;
        this.#waveCount = plan.waves.length;
        this.#write(
          s.dim(`  plan: ${plan.planner}, ${event.mode}, cap ${event.maxConcurrency}, `) +
            s.bold(`${plan.waves.length} wave(s)`),
        );
        plan.waves.forEach((wave, position) => {
          const members = wave.calls
            .map((index) => `${this.#name(index)} ${this.#label(index)}`)
            .join(', ');
          this.#write(`    ${s.magenta(`wave ${position + 1}`)}: ${members}`);
        });
        for (const entry of event.explanation) {
          if (
            entry.cause.kind === 'waits' ||
            entry.cause.kind === 'barrier' ||
            entry.cause.kind === 'unsafe'
          ) {
            const reason =
              this.#root === undefined
                ? entry.reason
                : entry.reason.replaceAll(`fs:${this.#root}/`, 'fs:');
            this.#write(
              s.dim(`      ${this.#name(entry.index)} ${this.#label(entry.index)}: ${reason}`),
            );
          }
        }
        break;
      }
      case 'wave-start':
        this.#write(
          s.magenta(
            `  ── wave ${event.wave + 1}/${this.#waveCount} (${event.calls.length} call(s))`,
          ),
        );
        break;
      case 'call-start': {
        this.#running += 1;
        this.#mostAtOnce = Math.max(this.#mostAtOnce, this.#running);
        const waited = event.waitedFor ?? [];
        const others = this.#running - 1;
        this.#write(
          `    ${s.yellow('▶')} ${this.#name(event.index)} ${this.#label(event.index)}` +
            (event.attempt > 1 ? s.dim(` (attempt ${event.attempt})`) : '') +
            (waited.length > 0
              ? s.dim(` after ${waited.map((i) => this.#name(i)).join(', ')}`)
              : '') +
            (others > 0 ? s.yellow(` ∥ ${others} other(s) running`) : ''),
        );
        break;
      }
      case 'call-end': {
        this.#running = Math.max(0, this.#running - 1);
        const mark = event.outcome === 'ok' ? s.green('✓') : s.red('✗');
        const first = (event.content ?? event.outcome).split('\n')[0] ?? '';
        const shown = first.length > 70 ? `${first.slice(0, 67)}...` : first;
        this.#write(
          `    ${mark} ${this.#name(event.index)} ${this.#label(event.index)} ${s.bold(`${Math.round(event.durationMs)} ms`)}` +
            s.dim(`  ${shown}`),
        );
        break;
      }
      case 'wave-end':
        break;
      case 'batch-end':
        if (event.results.length > 0) {
          this.#write(
            s.dim(`  turn done in ${Math.round(event.durationMs)} ms · `) +
              (this.#mostAtOnce > 1
                ? s.bold(`${this.#mostAtOnce} calls running at once at most`)
                : s.dim('one call at a time')),
          );
        }
        break;
    }
  }

  /** `#turn.call`, from 1. */
  #name(index: number): string {
    return callLabel({ turn: this.#turn, index });
  }

  #label(index: number): string {
    const call = this.#calls[index];
    return call === undefined ? '?' : describeCall(call);
  }
}
