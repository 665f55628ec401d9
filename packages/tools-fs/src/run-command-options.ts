import { checkOption, optionRules } from '@toolwaves/core/internal';
import { FsToolsError } from './fs-tools-error.js';

/** `runCommand` of `fsToolsModule`, when it is an object. */
export interface RunCommandOptions {
  /**
   * `'reads'` (default): commands classified read-only run in a read-only sandbox; the others
   * run unconfined. `'workspace-write'`: the others run in the same sandbox with the workspace
   * root writable (no network, nothing else of the host writable or even visible but the system
   * folders and the host's `PATH`); where no sandbox can run, such a command is refused.
   */
  readonly sandbox?: 'reads' | 'workspace-write';
  /** The bubblewrap binary. Default: `bwrap` on the host's `PATH`. */
  readonly bwrap?: string;
}

/** {@link RunCommandOptions} checked, defaults filled in. */
export interface RunCommandSettings {
  readonly sandbox: 'reads' | 'workspace-write';
  readonly bwrap: string | undefined;
}

/** The DI token of `run_command`'s {@link RunCommandSettings}. */
export const FS_RUN_COMMAND = Symbol.for('@toolwaves/tools-fs/run-command');

/**
 * Checks `runCommand` (`true`, `false`, `undefined` or {@link RunCommandOptions}): `undefined`
 * when `run_command` is not bound, else its settings.
 *
 * @throws FsToolsError `invalid_options`, naming the field and the value.
 */
export function parseRunCommandOption(value: unknown): RunCommandSettings | undefined {
  const error = (message: string) => new FsToolsError({ code: 'invalid_options', message });
  if (value === undefined || value === false) return undefined;
  if (value === true) return { sandbox: 'reads', bwrap: undefined };
  const options = checkOption({
    name: 'runCommand',
    value,
    rule: { ...optionRules.object, expected: 'a boolean or { sandbox?, bwrap? }' },
    error,
  }) as RunCommandOptions;
  const sandbox = checkOption({
    name: 'runCommand.sandbox',
    value: options.sandbox,
    rule: optionRules.oneOf(['reads', 'workspace-write'] as const),
    default: 'reads' as const,
    error,
  });
  const bwrap = checkOption<string | undefined>({
    name: 'runCommand.bwrap',
    value: options.bwrap,
    rule: optionRules.nonEmptyString,
    default: undefined,
    error,
  });
  return { sandbox, bwrap };
}
