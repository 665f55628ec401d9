import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkOption, optionMessage, optionRules } from '@toolwaves/core/internal';
import { FsToolsError } from './fs-tools-error.js';

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
   * The temporary folder of the host fence (`<fenceTempDir>/toolwaves-<uid>/fence/`): an
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

/**
 * Checks the options of `fsToolsModule` and fills in the defaults.
 *
 * @throws FsToolsError `invalid_root` when `root` is not a string naming an existing directory,
 * `invalid_options` for any other wrong option; the message names the field and the value, e.g.
 * "Expected `maxReadBytes` to be an integer from 1 and up, got `0` (number)".
 */
export function parseFsToolsOptions(options: FsToolsOptions): FsToolsSettings {
  checkOption({
    name: 'options',
    subject: 'the options of fsToolsModule',
    value: options,
    rule: { ...optionRules.object, expected: 'an object with a `root`' },
    error: invalidOptions,
  });
  const cachedReads = checkOption({
    name: 'cachedReads',
    value: options.cachedReads,
    rule: optionRules.boolean,
    default: false,
    error: invalidOptions,
  });
  const limits = {} as Record<LimitName, number>;
  for (const name of Object.keys(DEFAULTS) as LimitName[]) {
    limits[name] = checkOption({
      name,
      value: options[name],
      rule: optionRules.integerFrom(1),
      default: DEFAULTS[name],
      error: invalidOptions,
    });
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
    cachedReads,
    ...limits,
    fenceTempDir,
  };
}

function invalidOptions(message: string): FsToolsError {
  return new FsToolsError({ code: 'invalid_options', message });
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
