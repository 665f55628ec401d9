import {
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { writeTree, writeTreeSync } from './fixture.js';
import { tempDir } from './temp-dir.js';

/** Written into every file outside the root: no tool output may ever contain it. */
export const MARKER = 'SECRET-7f3a9c-OUTSIDE';

/**
 * A base folder holding the workspace root and, beside it, an outside folder with secrets, and a
 * root full of links in and out: relative and absolute, to files and folders, dangling, looping.
 */
export interface HostileWorld {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  /** Puts the root back as it was, when a tool changed it. */
  restore(): Promise<void>;
  /** Everything outside the root, with contents, link targets and change times. */
  snapshot(): string;
}

export async function hostileWorld(): Promise<HostileWorld> {
  const base = await tempDir();
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  await writeTree(outside, {
    'secret.txt': `${MARKER} a b x\n`,
    dir: { 'secret2.txt': `${MARKER}\na\n`, 'a.ts': `${MARKER}` },
    'a.ts': `${MARKER} a`,
    empty: {},
  });
  await writeFile(join(base, 'beside.txt'), `${MARKER} beside`);
  await mkdir(root);
  // Synchronous: the sandbox properties rebuild the root after most of their thousands of runs.
  const rebuild = () => {
    for (const name of readdirSync(root))
      rmSync(join(root, name), { recursive: true, force: true });
    writeTreeSync(root, {
      'a.ts': 'a\nb\nx\n',
      sub: { 'b.ts': 'b\na\n', deep: { 'c.ts': 'c' } },
      ü: { '日本.ts': 'a' },
      'u\u0308': { 'nfd.ts': 'x' },
    });
    const links: Array<[string, string]> = [
      ['out-file', '../outside/secret.txt'],
      ['out-dir', '../outside'],
      ['abs-out', join(outside, 'dir')],
      ['abs-out-file', join(outside, 'a.ts')],
      ['in-link', 'a.ts'],
      ['in-dir', 'sub'],
      ['abs-in', join(root, 'sub', 'b.ts')],
      ['dangle-out', '../outside/new.txt'],
      ['dangle-out-dir', '../outside/newdir/x'],
      ['dangle-in', 'sub/new.txt'],
      ['loop1', 'loop2'],
      ['loop2', 'loop1'],
      ['sub/up', '..'],
      ['sub/up2', '../..'],
      ['sub/deep/far', '../../../outside/dir'],
    ];
    for (const [name, target] of links) symlinkSync(target, join(root, name));
  };
  const tree = (start: string, skip: string | undefined): string => {
    const lines: string[] = [];
    const visit = (path: string, shown: string) => {
      const info = lstatSync(path);
      let what = `${info.mode.toString(8)} ${info.size} m${info.mtimeMs} c${info.ctimeMs}`;
      if (info.isSymbolicLink()) what += ` -> ${readlinkSync(path)}`;
      else if (info.isFile()) what += ` = ${readFileSync(path, 'utf8')}`;
      lines.push(`${shown}: ${what}`);
      if (info.isDirectory()) {
        for (const name of readdirSync(path).sort()) {
          if (join(path, name) === skip) continue;
          visit(join(path, name), `${shown}/${name}`);
        }
      }
    };
    visit(start, '.');
    return lines.join('\n');
  };
  rebuild();
  let pristine = tree(root, undefined);
  const restore = async () => {
    if (tree(root, undefined) === pristine) return;
    rebuild();
    pristine = tree(root, undefined);
  };
  return { base, root, outside, restore, snapshot: () => tree(base, root) };
}

/** Where a path really leads today, when it exists (what an unsandboxed tool would read). */
export function realTarget(world: HostileWorld, path: string): string | undefined {
  try {
    return realpathSync(resolve(world.root, path));
  } catch {
    return undefined;
  }
}

/**
 * Whether an unsandboxed tool given this path would touch something outside the root: the real
 * path of its longest existing part is outside (so a read, or a write below it, lands outside).
 */
export function aimsOutside(world: HostileWorld, path: string): boolean {
  if (path.includes('\0')) return false;
  for (let prefix = resolve(world.root, path); ; prefix = dirname(prefix)) {
    try {
      return isOutside(world, realpathSync(prefix));
    } catch {
      if (dirname(prefix) === prefix) return false;
    }
  }
}

/** Whether a real path is outside the root. */
export function isOutside(world: HostileWorld, real: string): boolean {
  return real !== world.root && !real.startsWith(world.root + sep);
}

const SEGMENTS = [
  '..',
  '.',
  '',
  'a.ts',
  'sub',
  'b.ts',
  'deep',
  'c.ts',
  'out-file',
  'out-dir',
  'abs-out',
  'abs-out-file',
  'in-link',
  'in-dir',
  'abs-in',
  'dangle-out',
  'dangle-out-dir',
  'dangle-in',
  'loop1',
  'up',
  'up2',
  'far',
  'secret.txt',
  'secret2.txt',
  'dir',
  'outside',
  'root',
  'beside.txt',
  'new.txt',
  'ü',
  'u\u0308',
  '日本.ts',
  'x\0y',
  '\0',
  '*',
  '**',
];

/** A hostile path: segments of `..`, `.`, links in and out, unicode, NUL, behind various prefixes. */
export function hostilePath(world: HostileWorld): fc.Arbitrary<string> {
  const prefix = fc.constantFrom(
    '',
    './',
    '/',
    '//',
    `${world.root}/`,
    `${world.root}/../`,
    `${world.outside}/`,
    `${world.base}/`,
    '/nonexistent-toolwaves-dir/',
  );
  const joiner = fc.constantFrom('/', '//', '/./');
  const segments = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 5 });
  const built = fc
    .tuple(prefix, segments, joiner)
    .map(([start, parts, glue]) => `${start}${parts.join(glue)}`);
  const aimed = fc
    .tuple(
      fc.constantFrom(
        '../',
        '../outside/',
        'out-dir/',
        'abs-out/',
        'sub/up2/',
        'sub/deep/far/',
        'in-dir/up2/outside/',
        `${world.outside}/`,
        `${world.base}/`,
      ),
      segments,
      joiner,
    )
    .map(([start, parts, glue]) => `${start}${parts.join(glue)}`);
  return fc.oneof(
    { weight: 5, arbitrary: built },
    { weight: 4, arbitrary: aimed },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  );
}
