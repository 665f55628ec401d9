import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { invalidOptions } from './fs-tools-error.js';

/** The private, empty home folder inside the sandbox (on its private `/tmp`). */
export const SANDBOX_HOME = '/tmp/toolwaves-home';

/** The folders of the system a command needs, bound read-only (or linked, when they are links). */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** The few files of `/etc` programs read to start (the loader, users, locale, magic). */
const ETC_FILES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'passwd',
  'group',
  'nsswitch.conf',
  'localtime',
  'magic',
  'magic.mime',
];

/** Whether commands can run in a bubblewrap sandbox here, and if not, why. */
export type SandboxProbe =
  | { readonly available: true; readonly bwrap: string }
  | { readonly available: false; readonly reason: string };

const probes = new Map<string, SandboxProbe>();

/**
 * Finds bubblewrap (`bwrap` on `PATH`, or the path given) and runs `true` in the sandbox once
 * (per process and path), the way commands will run: a missing binary, a refused user
 * namespace or another OS all answer `available: false` with the reason.
 */
export function probeSandbox(options: { readonly bwrap?: string } = {}): SandboxProbe {
  checkOptions({
    subject: 'probeSandbox',
    options,
    rules: { bwrap: optionRules.nonEmptyString },
    error: invalidOptions,
  });
  const wanted = options.bwrap ?? findOnPath('bwrap') ?? 'bwrap';
  const known = probes.get(wanted);
  if (known !== undefined) return known;
  const probe = runProbe(wanted);
  probes.set(wanted, probe);
  return probe;
}

function runProbe(bwrap: string): SandboxProbe {
  if (process.platform !== 'linux')
    return { available: false, reason: `no bubblewrap on ${process.platform}` };
  const root = mkdtempSync(join(tmpdir(), 'toolwaves-probe-'));
  try {
    const result = spawnSync(bwrap, sandboxArguments({ root, writable: false, command: 'true' }), {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10_000,
      env: { PATH: '/usr/bin:/bin' },
    });
    if (result.error !== undefined)
      return { available: false, reason: `${bwrap}: ${result.error.message}` };
    if (result.status !== 0) {
      const said = result.stderr.toString('utf8').trim().split('\n')[0] ?? '';
      return { available: false, reason: `${bwrap} failed (${said || `exit ${result.status}`})` };
    }
    return { available: true, bwrap };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The arguments of `bwrap` that run `/bin/sh -c command` in `root`: every namespace unshared
 * (no network, no other process seen), killed with its parent; the system
 * folders and a few `/etc` files read-only, a fresh `/dev` and `/proc`, a private empty `/tmp`
 * holding the private home, and the root — read-only, or writable with `writable` — and nothing
 * else of the host (the rest of the file system does not exist in it).
 */
export function sandboxArguments(options: {
  readonly root: string;
  readonly writable: boolean;
  readonly command: string;
  /** More folders to show read-only (the host's `PATH` for commands that may run anything). */
  readonly readOnly?: readonly string[];
}): string[] {
  // No `--new-session`: the command has no terminal to inject into (it runs detached, without
  // standard input), and staying in the caller's process group lets a timeout kill all of it,
  // even in the instant before `--die-with-parent` takes hold.
  const args = ['--unshare-all', '--unshare-net', '--die-with-parent'];
  for (const folder of SYSTEM_FOLDERS) {
    const link = linkTarget(folder);
    if (link !== undefined) args.push('--symlink', link, folder);
    else args.push('--ro-bind-try', folder, folder);
  }
  for (const file of ETC_FILES) args.push('--ro-bind-try', `/etc/${file}`, `/etc/${file}`);
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--dir', SANDBOX_HOME);
  for (const folder of options.readOnly ?? []) args.push('--ro-bind-try', folder, folder);
  args.push(options.writable ? '--bind' : '--ro-bind', options.root, options.root);
  args.push('--remount-ro', '/', '--chdir', options.root, '/bin/sh', '-c', options.command);
  return args;
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The first executable `name` on the host's `PATH`. */
function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}
