import { dirname } from 'node:path';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { invalidOptions } from './fs-tools-error.js';

/** The `PATH` of a command classified read-only: system folders only, never the workspace. */
export const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Settings given to every git command classified read-only, above the repository's own
 * (through `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`): no file-system monitor
 * program, no hooks, no pager, no transport (`protocol.allow=never`), no signature check.
 * (`diff.external`, textconv drivers, filters and aliases cannot be switched off this way; a
 * repository that sets them is refused by the classifier instead.)
 */
const GIT_READ_SETTINGS: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.untrackedCache', 'false'],
  ['protocol.allow', 'never'],
  ['log.showSignature', 'false'],
  ['credential.helper', ''],
];

/**
 * The environment `run_command` passes, and nothing else of the host's: `HOME` an empty
 * private folder (never the root), `LANG=C.UTF-8`, `TERM=dumb`, `NO_COLOR=1`, no pager
 * (`PAGER=cat`, `GIT_PAGER=cat`), git without system or global settings
 * (`GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`, `GIT_ATTR_NOSYSTEM=1`), without optional locks
 * (`GIT_OPTIONAL_LOCKS=0`), without prompts, and never looking for a repository above the root
 * (`GIT_CEILING_DIRECTORIES`). A read-only command gets the system `PATH` and
 * the git settings that switch off programs; another command the host's `PATH`.
 */
export function runCommandEnvironment(options: {
  readonly root: string;
  readonly home: string;
  readonly readOnly: boolean;
}): Record<string, string> {
  checkOptions({
    subject: 'runCommandEnvironment',
    options,
    rules: {
      root: optionRules.nonEmptyString,
      home: optionRules.nonEmptyString,
      readOnly: optionRules.boolean,
    },
    required: ['root', 'home', 'readOnly'],
    error: invalidOptions,
  });
  const env: Record<string, string> = {
    PATH: options.readOnly ? SYSTEM_PATH : (process.env.PATH ?? SYSTEM_PATH),
    HOME: options.home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CEILING_DIRECTORIES: dirname(options.root),
  };
  if (!options.readOnly) return env;
  env.GIT_CONFIG_COUNT = String(GIT_READ_SETTINGS.length);
  GIT_READ_SETTINGS.forEach(([key, value], n) => {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
  });
  return env;
}
