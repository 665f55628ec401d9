import type { ToolCall } from '@toolwaves/core';
import type { DispatchEvent } from '@toolwaves/executor-rx';
import { describeCall } from './describe-call.js';
import type { TerminalStyle } from './terminal-style.js';

/** Options of {@link LiveView}. */
export interface LiveViewOptions {
  readonly write: (line: string) => void;
  readonly style: TerminalStyle;
  /** The workspace root, cut from access keys in the plan's reasons so they stay readable. */
  readonly root?: string;
}

/**
 * Shows a session as it happens: each turn's words, its plan (waves, and why each call waits),
 * every call starting and finishing with its duration and the first line of its result.
 */
export class LiveView {
  readonly #write: (line: string) => void;
  readonly #style: TerminalStyle;
  readonly #root: string | undefined;
  #calls: readonly ToolCall[] = [];
  #waveCount = 0;

  constructor(options: LiveViewOptions) {
    this.#write = options.write;
    this.#style = options.style;
    this.#root = options.root;
  }

  /** The model's turn, before its calls run. */
  modelTurn(turn: number, text: string | undefined, calls: readonly ToolCall[]): void {
    this.#calls = calls;
    const s = this.#style;
    this.#write('');
    this.#write(
      s.bold(`Turn ${turn}`) +
        s.dim(` · ${calls.length} call(s)`) +
        (text ? ` · ${s.cyan(text)}` : ''),
    );
  }

  /** One dispatch event. */
  event(event: DispatchEvent): void {
    const s = this.#style;
    switch (event.type) {
      case 'batch-start': {
        const plan = event.plan;
        if (plan === undefined) {
          // Eager mode and streams: no waves; calls start as their dependencies end.
          this.#write(s.dim(`  ${event.mode}, cap ${event.maxConcurrency}, no waves`));
          break;
        }
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
      case 'call-start':
        this.#write(
          `    ${s.yellow('▶')} #${event.index} ${this.#label(event.index)}` +
            (event.attempt > 1 ? s.dim(` (attempt ${event.attempt})`) : ''),
        );
        break;
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
        this.#write(s.dim(`  turn done in ${Math.round(event.durationMs)} ms`));
        break;
    }
  }

  #label(index: number): string {
    const call = this.#calls[index];
    return call === undefined ? '?' : describeCall(call);
  }
}
