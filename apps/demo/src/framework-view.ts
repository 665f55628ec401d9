import type { Instrumentation } from '@toolwaves/core';
import { describeCall } from './describe-call.js';
import type { TerminalStyle } from './terminal-style.js';

/** One call a framework ran, as the dispatcher saw it. */
export interface FrameworkCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The earlier calls of its turn it waited for. */
  readonly waitedFor: readonly string[];
  readonly outcome: 'ok' | 'error' | 'cancelled';
  /** From the call's arrival to its end (waiting included). */
  readonly durationMs: number;
}

/**
 * The demo's view of a framework session, as the dispatcher's instrumentation: each call the
 * framework hands to toolwaves, when it may start (and which earlier calls it waited for), and
 * how it ended; every ended call is kept in `calls`.
 */
export class FrameworkView {
  readonly calls: FrameworkCall[] = [];
  readonly instrumentation: Instrumentation;

  constructor(options: { readonly write: (line: string) => void; readonly style: TerminalStyle }) {
    const { write, style: s } = options;
    this.instrumentation = {
      startBatch: () => ({
        startAttempt: (info) => {
          const arrived = performance.now();
          const call = describeCall({ name: info.toolName, input: info.input });
          return {
            granted: () => {
              const waited =
                info.waitedFor.length === 0 ? '' : ` after ${info.waitedFor.join(', ')}`;
              write(`    ${s.cyan('▶')} ${info.toolCallId} ${call}${s.dim(waited)}`);
            },
            run: (fn) => fn(),
            end: (end) => {
              const durationMs = performance.now() - arrived;
              const mark = end.outcome === 'ok' ? s.green('✓') : s.red('✗');
              write(
                `    ${mark} ${info.toolCallId} ${call}${s.dim(`  ${Math.round(durationMs)} ms`)}`,
              );
              this.calls.push({
                toolCallId: info.toolCallId,
                toolName: info.toolName,
                waitedFor: info.waitedFor,
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
