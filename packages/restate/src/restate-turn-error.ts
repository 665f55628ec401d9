/** What went wrong with a durable turn (`RestateTurnError.code`). */
export type RestateTurnErrorCode = 'invalid_options' | 'journal_mismatch';

/**
 * The one error class of `@toolwaves/restate`: bad options given to {@link runDurableTurn}
 * (`invalid_options`), or a journal that answers for a step this turn never started
 * (`journal_mismatch`: the handler's code changed between two runs of one invocation).
 */
export class RestateTurnError extends Error {
  readonly code: RestateTurnErrorCode;

  constructor(options: { code: RestateTurnErrorCode; message: string }) {
    super(options.message);
    this.name = 'RestateTurnError';
    this.code = options.code;
  }
}
