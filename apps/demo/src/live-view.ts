import type { ToolCall } from '@toolwaves/core';
import type { DispatchEvent } from '@toolwaves/executor-rx';
import type { CallWritten } from './agent-loop.js';
import { describeCall } from './describe-call.js';
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
 * finishing with its duration and the first line of its result.
 */
export class LiveView {
  readonly #write: (line: string) => void;
  readonly #style: TerminalStyle;
  readonly #root: string | undefined;
  #calls: ToolCall[] = [];
  #waveCount = 0;

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
      this.#write('');
      this.#write(
        s.bold(`Turn ${written.turn}`) +
          (written.writing.text ? ` · ${s.cyan(written.writing.text)}` : ''),
      );
    }
    this.#calls[written.index] = written.call;
    this.#write(
      `    ${s.cyan('✎')} #${written.index} ${describeCall(written.call)}` +
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
        const plan = event.plan;
        // A streamed turn has no plan: each call shows when it is written and when it starts.
        if (plan === undefined) break;
        this.#waveCount = plan.waves.length;
        this.#write(
          s.dim(`  plan: ${plan.planner}, ${event.mode}, cap ${event.maxConcurrency}, `) +
            s.bold(`${plan.waves.length} wave(s)`),
        );
        plan.waves.forEach((wave, position) => {
          const members = wave.calls.map((index) => `#${index} ${this.#label(index)}`).join(', ');
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
            this.#write(s.dim(`      #${entry.index} ${this.#label(entry.index)}: ${reason}`));
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
        const waited = event.waitedFor ?? [];
        this.#write(
          `    ${s.yellow('▶')} #${event.index} ${this.#label(event.index)}` +
            (event.attempt > 1 ? s.dim(` (attempt ${event.attempt})`) : '') +
            (waited.length > 0 ? s.dim(` after ${waited.map((i) => `#${i}`).join(', ')}`) : ''),
        );
        break;
      }
      case 'call-end': {
        const mark = event.outcome === 'ok' ? s.green('✓') : s.red('✗');
        const first = (event.content ?? event.outcome).split('\n')[0] ?? '';
        const shown = first.length > 70 ? `${first.slice(0, 67)}...` : first;
        this.#write(
          `    ${mark} #${event.index} ${this.#label(event.index)} ${s.bold(`${Math.round(event.durationMs)} ms`)}` +
            s.dim(`  ${shown}`),
        );
        break;
      }
      case 'wave-end':
        break;
      case 'batch-end':
        if (event.results.length > 0) {
          this.#write(s.dim(`  turn done in ${Math.round(event.durationMs)} ms`));
        }
        break;
    }
  }

  #label(index: number): string {
    const call = this.#calls[index];
    return call === undefined ? '?' : describeCall(call);
  }
}
