import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync, utimesSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTree } from './fixture.js';
import { tempDir } from './temp-dir.js';

/**
 * A scratch world for running commands for real: `root` (the workspace: files, a git repository,
 * links in and out, files named like options, a nested repository whose config runs programs, a
 * folder whose `.git` file points outside) and `outside` (a secret, a git directory) beside it.
 */
export interface CommandWorld {
  readonly dir: string;
  readonly root: string;
  readonly outside: string;
  /** The modification time of every file and folder when the world was made. */
  readonly mtimes: ReadonlyMap<string, Date>;
}

/** Long before anything was made: an access time this old means "not read since". */
export const UNREAD = new Date('2000-01-01T00:00:00Z');

export async function makeWorld(): Promise<CommandWorld> {
  const dir = await tempDir();
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  await writeTree(outside, { 'secret.txt': 'hunter2\n', zone: 'TZif' });
  await writeTree(root, {
    'a.txt': 'alpha\nbeta\n',
    'b.txt': 'beta\ngamma\n',
    'names.txt': 'zoe\nadam\nzoe\n',
    'data.csv': 'a,1\nb,2\na,3\n',
    'notes.md': '# notes\nstart\nmiddle\nend\n',
    'package.json': '{"version":"1.0.0","scripts":{"test":"vitest","build":"tsc"}}\n',
    'patterns.txt': 'alpha\n',
    'input.txt': 'one\ntwo\n',
    'in.txt': 'foo bar\n',
    'access.log': '1.2.3.4 GET /\n5.6.7.8 POST /x\n',
    'ref.txt': 'ref\n',
    'prog.awk': 'BEGIN { system("touch AWK_RAN") }\n',
    'sums.txt': `${'0'.repeat(32)}  ../outside/secret.txt\n`,
    'list.txt': 'a.txt\n',
    '.gitignore': 'hostile/\nlinked/\n',
    '.gitconfig': '[core]\n\tfsmonitor = touch GITCONFIG_RAN\n',
    '-i': 'named like an option\n',
    '--output=x.txt': 'named like an option\n',
    '-delete': 'named like an option\n',
    src: {
      'a.ts': 'export const a = 1; // TODO\n',
      'b.ts': 'export const b = 2;\n',
      'index.ts': 'export * from "./a";\nfunction main() {}\n',
      'cli.ts': 'function main() {\n  return 1;\n}\n',
    },
    docs: { 'guide.md': 'install it\n' },
    logs: { 'out.log': 'line 1\nline 2\nline 3\n' },
    esc: { 'plain.txt': 'plain\n' },
    empty: {},
  });
  await symlink('src/a.ts', join(root, 'link-in'));
  await symlink('src', join(root, 'linkdir'));
  await symlink('../outside/secret.txt', join(root, 'link-out'));
  await symlink('../outside', join(root, 'dir-out'));
  await symlink('../../outside/secret.txt', join(root, 'esc', 'out'));
  const old = new Date('2001-01-01T00:00:00Z');
  for (const path of walk(root)) if (!lstatSync(path).isSymbolicLink()) utimesSync(path, old, old);
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd,
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
  git(root, 'init', '-q', '-b', 'main');
  // utimes changes a file's ctime: without this, every step would leave the index stale.
  git(root, 'config', 'core.trustctime', 'false');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'first');
  // A nested repository whose own config runs programs on reads.
  const hostile = join(root, 'hostile');
  await mkdir(hostile);
  git(hostile, 'init', '-q');
  await writeFile(join(hostile, 'a.txt'), 'a\n');
  await writeFile(join(hostile, '.gitattributes'), '*.txt diff=conv\n');
  git(hostile, 'add', '.');
  git(hostile, 'commit', '-qm', 'a');
  await writeFile(
    join(hostile, '.git', 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch FSMONITOR_RAN\n[diff]\n\texternal = touch EXTDIFF_RAN\n[diff "conv"]\n\ttextconv = touch TEXTCONV_RAN\n',
  );
  // A folder whose `.git` file points to a git directory outside the workspace.
  git(outside, 'init', '-q', '--bare', 'gitdir');
  const linked = join(root, 'linked');
  await mkdir(linked);
  await writeFile(join(linked, '.git'), `gitdir: ${join(outside, 'gitdir')}\n`);
  const mtimes = new Map<string, Date>();
  for (const path of walk(dir)) {
    const stat = lstatSync(path);
    if (!stat.isSymbolicLink()) mtimes.set(path, stat.mtime);
  }
  return { dir, root, outside, mtimes };
}

/** Every path under `dir` (itself included), links not followed. */
export function walk(dir: string): string[] {
  const found = [dir];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...walk(path));
    else found.push(path);
  }
  return found;
}

/** What every path of the world holds: a hash of a file, a link's target, `dir` for a folder. */
export function contents(world: CommandWorld): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of walk(world.dir)) {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) found.set(path, `-> ${readlinkSync(path)}`);
    else if (stat.isDirectory()) found.set(path, 'dir');
    else found.set(path, createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
  return found;
}

/** Marks everything unread: access times long ago, modification times as they were. */
export function markUnread(world: CommandWorld): void {
  for (const [path, mtime] of world.mtimes) utimesSync(path, UNREAD, mtime);
}

/** The files and folders read (listed, for a folder) since {@link markUnread}. */
export function readSince(world: CommandWorld): string[] {
  const found: string[] = [];
  for (const path of world.mtimes.keys()) {
    if (lstatSync(path).atime.getTime() > UNREAD.getTime() + 1000) found.push(path);
  }
  return found;
}
