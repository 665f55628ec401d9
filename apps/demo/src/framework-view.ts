import type { Instrumentation } from '@toolwaves/core';
import { describeCall } from './describe-call.js';
import type { TerminalStyle } from './terminal-style.js';

/** One call a framework ran, as the dispatcher saw it. */
export interface FrameworkCall {
  /** The demo's name for the call (`#2.3`: turn 2, third call), as in the other modes. */
  readonly call: string;
  /** The id the framework knows the call by. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The earlier calls of its turn it waited for, by their names (`#2.1`). */
  readonly waitedFor: readonly string[];
  readonly outcome: 'ok' | 'error' | 'cancelled';
  /** From the call's arrival to its end (waiting included). */
  readonly durationMs: number;
}

/** Options of {@link FrameworkView}. */
export interface FrameworkViewOptions {
  readonly write: (line: string) => void;
  readonly style: TerminalStyle;
  /**
   * The demo's name of each call (`#2.3`), by the framework's id for it
   * (`frameworkCallLabels`); a call without one is shown by its id.
   */
  readonly labels: ReadonlyMap<string, string>;
}

/**
 * The demo's view of a framework session, as the dispatcher's instrumentation: each call the
 * framework hands to toolwaves, when it may start (and which earlier calls it waited for), and
 * how it ended; every ended call is kept in `calls`. Calls are named as in the other modes
 * (`#2.3`), whatever id the framework gave them.
 */
export class FrameworkView {
  readonly calls: FrameworkCall[] = [];
  readonly instrumentation: Instrumentation;

  constructor(options: FrameworkViewOptions) {
    const { write, style: s, labels } = options;
    const label = (id: string) => labels.get(id) ?? id;
    this.instrumentation = {
      startBatch: () => ({
        startAttempt: (info) => {
          const arrived = performance.now();
          const call = describeCall({ name: info.toolName, input: info.input });
          const name = label(info.toolCallId);
          const waitedFor = info.waitedFor.map(label);
          return {
            granted: () => {
              const waited = waitedFor.length === 0 ? '' : ` after ${waitedFor.join(', ')}`;
              write(`    ${s.cyan('▶')} ${name} ${call}${s.dim(waited)}`);
            },
            run: (fn) => fn(),
            end: (end) => {
              const durationMs = performance.now() - arrived;
              const mark = end.outcome === 'ok' ? s.green('✓') : s.red('✗');
              write(`    ${mark} ${name} ${call}${s.dim(`  ${Math.round(durationMs)} ms`)}`);
              this.calls.push({
                call: name,
                toolCallId: info.toolCallId,
                toolName: info.toolName,
                waitedFor,
                outcome: end.outcome,
                durationMs,
              });
            },
          };
        },
        end: () => undefined,
      }),
    };
  }
}
