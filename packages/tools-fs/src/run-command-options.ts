import { type OptionRule, optionRules } from '@toolwaves/core/internal';

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
 * What `runCommand` of `fsToolsModule` must be, and each of its options when it is an object
 * (dotted, for `checkOptions`: an unknown key of it is refused like a top-level one).
 */
export const RUN_COMMAND_OPTION_RULES: Readonly<Record<string, OptionRule<unknown>>> = {
  runCommand: {
    expected: 'a boolean or { sandbox?, bwrap? }',
    test: (value): value is boolean | RunCommandOptions =>
      typeof value === 'boolean' || optionRules.object.test(value),
  },
  'runCommand.sandbox': optionRules.oneOf(['reads', 'workspace-write'] as const),
  'runCommand.bwrap': optionRules.nonEmptyString,
};

/**
 * Reads `runCommand` (`true`, `false`, `undefined` or {@link RunCommandOptions}), checked
 * against {@link RUN_COMMAND_OPTION_RULES}: `undefined` when `run_command` is not bound, else
 * its settings.
 */
export function runCommandSettings(
  value: boolean | RunCommandOptions | undefined,
): RunCommandSettings | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { sandbox: 'reads', bwrap: undefined };
  return { sandbox: value.sandbox ?? 'reads', bwrap: value.bwrap };
}
