import { describeValue, type ToolOutput } from '@toolwaves/core';
import type { CallAttempt } from './call-attempt.js';
import { errorMessage } from './error-message.js';
import { isPromiseLike } from './is-promise-like.js';

/**
 * The execution stage of an attempt: calls the tool with the parsed input and the attempt's
 * signal, racing the dispatcher's `timeoutMs` when there is one. The tool's answer (a string or
 * `{ content, isError? }`), what it threw, anything else it returned, or the time-out (which
 * aborts the attempt's signal with a `TimeoutError`) goes on to {@link CallAttempt.ran}; an
 * answer that comes after the time-out, or after the call was stopped, is dropped.
 *
 * @see runPostHooks for the next stage.
 */
export function executeAttempt(run: CallAttempt): void {
  const timeoutMs = run.batch.config.timeoutMs;
  const token = run.token;
  const signal = run.signal();
  if (timeoutMs !== undefined) {
    run.setTimer(() => timeOut(run, token, timeoutMs), timeoutMs);
  }
  let output: string | ToolOutput | PromiseLike<string | ToolOutput>;
  try {
    output = run.tool!.execute(run.value, {
      toolCallId: run.call.id,
      signal,
      attempt: run.attempt,
    });
  } catch (error) {
    onThrow(run, token, error);
    return;
  }
  if (isPromiseLike(output)) {
    output.then(
      (value) => onOutput(run, token, value),
      (error: unknown) => onThrow(run, token, error),
    );
  } else {
    onOutput(run, token, output);
  }
}

function onOutput(run: CallAttempt, token: number, output: unknown): void {
  if (token !== run.token) return;
  if (typeof output === 'string') {
    run.ran(output, false, 'tool_reported');
  } else if (
    typeof output === 'object' &&
    output !== null &&
    typeof (output as ToolOutput).content === 'string'
  ) {
    run.ran(
      (output as ToolOutput).content,
      (output as ToolOutput).isError === true,
      'tool_reported',
    );
  } else {
    run.ran(
      `Tool \`${run.toolName}\` returned ${describeValue(output)}, not a string or { content }`,
      true,
      'tool_error',
    );
  }
}

function onThrow(run: CallAttempt, token: number, error: unknown): void {
  if (token !== run.token) return;
  run.ran(`Tool \`${run.toolName}\` failed: ${errorMessage(error)}`, true, 'tool_error', error);
}

function timeOut(run: CallAttempt, token: number, timeoutMs: number): void {
  if (token !== run.token) return;
  const message = `Tool \`${run.toolName}\` timed out after ${timeoutMs} ms`;
  const reason = new Error(message);
  reason.name = 'TimeoutError';
  run.timedOut(reason);
  run.ran(message, true, 'timeout');
}
