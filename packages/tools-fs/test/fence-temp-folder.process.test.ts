import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killChildren, scriptCommand, startChild, works } from './fence/spawn-script.js';
import { tempDir } from './temp-dir.js';

afterEach(killChildren);

const mountNamespaces = works([
  'unshare',
  '--mount',
  '--propagation',
  'private',
  'sh',
  '-c',
  'mount -t tmpfs -o size=64k tmpfs /mnt',
]);
if (!mountNamespaces) {
  console.log(
    'tools-fs: skipping the read-only and full temporary folder tests: `unshare --mount` with a tmpfs is not permitted here',
  );
}

/**
 * Runs one `write_file` of `a.txt` (token 7) in a child with a mount namespace of its own, whose
 * fence's temporary folder is a 64 KiB tmpfs prepared by `prepare` (a shell line, `$1` is the
 * folder). Returns its answer; the workspace is untouched by the mount.
 */
async function writeWithTempFolder(prepare: string) {
  const root = await tempDir();
  await writeFile(join(root, 'a.txt'), 'old\n');
  const folder = await tempDir();
  // $1: the folder, $2: the root, then the command
  const script = `mount -t tmpfs -o size=64k,mode=1777 tmpfs "$1" && ${prepare} && shift 2 && exec "$@"`;
  const child = startChild([
    'unshare',
    '--mount',
    '--propagation',
    'private',
    'sh',
    '-c',
    script,
    'sh',
    folder,
    root,
    ...scriptCommand('fence-write-process.ts', [folder, root]),
  ]);
  const code = await child.exited;
  const line = child
    .output()
    .split('\n')
    .find((l) => l.startsWith('{'));
  if (code !== 0 || line === undefined)
    throw new Error(`the child failed (${code}): ${child.output()}`);
  return { root, folder, answer: JSON.parse(line) as { content: string; isError?: boolean } };
}

describe.skipIf(!mountNamespaces)('the fence’s temporary folder unusable', () => {
  it('read-only: the error names the fence’s folder and EROFS, not the file the model asked for; nothing written', async () => {
    const { root, folder, answer } = await writeWithTempFolder('mount -o remount,ro "$1"');
    expect(answer.isError).toBe(true);
    expect(answer.content).toBe(
      `the host fence could not create its folder ${folder}/toolwaves-fence-${process.getuid?.()}: EROFS (read-only file system); nothing was written (the fence's folder is set by \`fenceTempDir\`, default the OS temporary folder)`,
    );
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('old\n');
    expect(await readdir(root)).toEqual(['a.txt']);
  }, 60_000);

  it('full: the error names the fence’s file and ENOSPC, not the file the model asked for; nothing written', async () => {
    const { root, folder, answer } = await writeWithTempFolder(
      '(dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; true)',
    );
    expect(answer.isError).toBe(true);
    expect(answer.content).toMatch(
      new RegExp(
        `^the host fence could not [a-z ]+ ${folder}/toolwaves-fence-${process.getuid?.()}/\\S+: ENOSPC \\(no space left on the device\\); nothing was written`,
      ),
    );
    expect(answer.content).not.toContain('a.txt');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('old\n');
    expect(await readdir(root)).toEqual(['a.txt']);
  }, 60_000);
});
