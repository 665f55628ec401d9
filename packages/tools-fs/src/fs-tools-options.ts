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
}

const DEFAULTS = {
  maxReadBytes: 256 * 1024,
  maxReadLines: 2000,
  maxResults: 1000,
  maxFileBytes: 16 * 1024 * 1024,
  maxCacheEntries: 512,
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
  return { root: checkRoot(options.root), cachedReads, ...limits };
}

function invalidOptions(message: string): FsToolsError {
  return new FsToolsError({ code: 'invalid_options', message });
}

function checkRoot(root: unknown): string {
  if (typeof root !== 'string' || root === '' || root.includes('\0')) {
    throw new FsToolsError({
      code: 'invalid_root',
      message: rootMessage(root),
    });
  }
  const absolute = resolve(root);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code})`;
    throw new FsToolsError({
      code: 'invalid_root',
      message: `${rootMessage(root)}, which ${why}`,
      cause,
    });
  }
  if (!isDirectory) {
    throw new FsToolsError({
      code: 'invalid_root',
      message: `${rootMessage(root)}, which is not a directory`,
    });
  }
  return absolute;
}

function rootMessage(root: unknown): string {
  return optionMessage({
    name: 'root',
    expected: 'the path of an existing directory',
    value: root,
  });
}
