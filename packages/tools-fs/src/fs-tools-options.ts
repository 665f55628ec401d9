import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  checkOptions,
  type OptionRule,
  optionMessage,
  optionRules,
} from '@toolwaves/core/internal';
import { FsToolsError, invalidOptions } from './fs-tools-error.js';

/** Options of `fsToolsModule` (and of {@link parseFsToolsOptions}). */
export interface FsToolsOptions {
  /** The workspace: an existing directory. Every path is resolved against it and kept inside it. */
  readonly root: string;
  /** Memoize successful `read_file` results until a write overlaps them. Default `false`. */
  readonly cachedReads?: boolean;
  /** Most bytes of file content one `read_file` answers with. Default 256 KiB. */
  readonly maxReadBytes?: number;
  /** Most lines one `read_file` answers with when the call gives no `limit`. Default 2000. */
  readonly maxReadLines?: number;
  /** Most entries `list_dir`, paths `glob` and matching lines `grep` answer with. Default 1000. */
  readonly maxResults?: number;
  /** Largest file `edit_file` rewrites and `grep` searches, in bytes. Default 16 MiB. */
  readonly maxFileBytes?: number;
  /** Most entries the read cache keeps (oldest evicted first). Default 512. */
  readonly maxCacheEntries?: number;
  /**
   * How long a write waits for the host commit step, held by another writer of an overlapping
   * path, before it answers `commit_blocked` (naming the holder) having written nothing, in ms.
   * Default 5000.
   */
  readonly maxCommitWaitMs?: number;
  /**
   * The temporary folder of the host fence (`<fenceTempDir>/toolwaves-fence-<uid>/`): an
   * existing directory every process sharing the workspace sees. Default `os.tmpdir()`.
   */
  readonly fenceTempDir?: string;
}

/** {@link FsToolsOptions} checked, with every default filled in and `root` made absolute. */
export interface FsToolsSettings {
  readonly root: string;
  readonly cachedReads: boolean;
  readonly maxReadBytes: number;
  readonly maxReadLines: number;
  readonly maxResults: number;
  readonly maxFileBytes: number;
  readonly maxCacheEntries: number;
  readonly maxCommitWaitMs: number;
  /** `undefined`: `os.tmpdir()`. */
  readonly fenceTempDir: string | undefined;
}

const DEFAULTS = {
  maxReadBytes: 256 * 1024,
  maxReadLines: 2000,
  maxResults: 1000,
  maxFileBytes: 16 * 1024 * 1024,
  maxCacheEntries: 512,
  maxCommitWaitMs: 5000,
} as const;

type LimitName = keyof typeof DEFAULTS;

/** `root` and `fenceTempDir`: any value here, held to an existing directory by `checkDirectory`. */
const DIRECTORY: OptionRule<unknown> = {
  expected: 'the path of an existing directory',
  test: (value): value is unknown => true,
};

/** What each option of {@link FsToolsOptions} must be (`root` is checked with its own code). */
export const FS_TOOLS_OPTION_RULES: Readonly<Record<keyof FsToolsOptions, OptionRule<unknown>>> = {
  root: DIRECTORY,
  cachedReads: optionRules.boolean,
  maxReadBytes: optionRules.integerFrom(1),
  maxReadLines: optionRules.integerFrom(1),
  maxResults: optionRules.integerFrom(1),
  maxFileBytes: optionRules.integerFrom(1),
  maxCacheEntries: optionRules.integerFrom(1),
  maxCommitWaitMs: optionRules.integerFrom(1),
  fenceTempDir: DIRECTORY,
};

/** What the options object of fsToolsModule must be, in the message when it is not one. */
export const FS_TOOLS_OPTIONS_EXPECTED = 'an object with a `root`';

/**
 * Checks the options of a `Workspace` (the part of `fsToolsModule`'s options it takes) and
 * fills in the defaults.
 *
 * @throws FsToolsError `invalid_root` when `root` is not a string naming an existing directory,
 * `invalid_options` for an unknown option (with a "did you mean" for a near miss) or any other
 * wrong option; the message names the field and the value, e.g.
 * "Expected `maxReadBytes` to be an integer from 1 and up, got `0` (number)".
 */
export function parseFsToolsOptions(options: FsToolsOptions): FsToolsSettings {
  checkOptions({
    subject: 'parseFsToolsOptions',
    options,
    expected: FS_TOOLS_OPTIONS_EXPECTED,
    rules: FS_TOOLS_OPTION_RULES,
    error: invalidOptions,
  });
  return fsToolsSettings(options);
}

/** Fills in the defaults of options checked against {@link FS_TOOLS_OPTION_RULES}. */
export function fsToolsSettings(options: FsToolsOptions): FsToolsSettings {
  const limits = {} as Record<LimitName, number>;
  for (const name of Object.keys(DEFAULTS) as LimitName[]) {
    limits[name] = options[name] ?? DEFAULTS[name];
  }
  const fenceTempDir =
    options.fenceTempDir === undefined
      ? undefined
      : checkDirectory({
          name: 'fenceTempDir',
          value: options.fenceTempDir,
          code: 'invalid_options',
        });
  return {
    root: checkDirectory({ name: 'root', value: options.root, code: 'invalid_root' }),
    cachedReads: options.cachedReads ?? false,
    ...limits,
    fenceTempDir,
  };
}

function checkDirectory(options: {
  readonly name: 'root' | 'fenceTempDir';
  readonly value: unknown;
  readonly code: 'invalid_root' | 'invalid_options';
}): string {
  const { name, value, code } = options;
  const message = optionMessage({ name, expected: 'the path of an existing directory', value });
  if (typeof value !== 'string' || value === '' || value.includes('\0')) {
    throw new FsToolsError({ code, message });
  }
  const absolute = resolve(value);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    const why =
      errno === 'ENOENT' || errno === 'ENOTDIR' ? 'does not exist' : `cannot be read (${errno})`;
    throw new FsToolsError({ code, message: `${message}, which ${why}`, cause });
  }
  if (!isDirectory) {
    throw new FsToolsError({ code, message: `${message}, which is not a directory` });
  }
  return absolute;
}
