import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../src/index.js';
import { tempDir } from './temp-dir.js';

async function repository(config: string): Promise<string> {
  const root = await tempDir();
  execFileSync('git', ['init', '-q'], { cwd: root });
  await writeFile(join(root, '.git', 'config'), config);
  return root;
}

const BASE = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n';

describe('git reads and the repository they would use', () => {
  it('stay read-only in a repository whose config holds only harmless settings', async () => {
    const root = await repository(
      `${BASE}[remote "origin"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n[submodule "lib"]\n\turl = ../lib.git\n\tactive = true\n[user]\n\tname = x ; a comment\n`,
    );
    expect(classifyCommand('git status --short', { root })).toEqual({
      concurrencySafe: true,
      reads: [root],
    });
  });

  it.each([
    ['core.fsmonitor', `${BASE}\tfsmonitor = touch X\n`],
    ['core.worktree', `${BASE}\tworktree = /elsewhere\n`],
    ['include.path', `${BASE}[include]\n\tpath = /elsewhere/config\n`],
    ['includeif', `${BASE}[includeIf "gitdir:~/"]\n\tpath = x\n`],
    ['a filter', `${BASE}[filter "lfs"]\n\tclean = git-lfs clean -- %f\n`],
    ['a textconv driver', `${BASE}[diff "bin"]\n\ttextconv = hexdump\n`],
    ['diff.external', `${BASE}[diff]\n\texternal = touch X\n`],
    ['an alias', `${BASE}[alias]\n\tst = !touch X\n`],
    ['a partial clone', `${BASE}[extensions]\n\tpartialClone = origin\n`],
    ['submodule.*.update', `${BASE}[submodule "lib"]\n\tupdate = !touch X\n`],
    ['a continued line', `${BASE}[user]\n\tname = a \\\n\tb\n`],
    ['core.pager', `${BASE}\tpager = touch X\n`],
  ])('are unsafe when the config sets %s', async (_name, config) => {
    const root = await repository(config);
    const found = classifyCommand('git log -1', { root });
    expect(found.concurrencySafe).toBe(false);
  });

  it('are unsafe when the git directory or its objects are outside the root', async () => {
    const outside = await tempDir();
    execFileSync('git', ['init', '-q', '--bare', 'elsewhere.git'], { cwd: outside });
    const linked = await tempDir();
    await symlink(join(outside, 'elsewhere.git'), join(linked, '.git'));
    const borrowing = await repository(BASE);
    await mkdir(join(borrowing, '.git', 'objects', 'info'), { recursive: true });
    await writeFile(join(borrowing, '.git', 'objects', 'info', 'alternates'), `${outside}\n`);
    const pointing = await tempDir();
    await writeFile(join(pointing, '.git'), `gitdir: ${join(outside, 'elsewhere.git')}\n`);
    for (const root of [linked, borrowing, pointing]) {
      expect(classifyCommand('git status', { root }).concurrencySafe, root).toBe(false);
    }
  });

  it('with no repository inside the root, git reads nothing and stays read-only', async () => {
    const root = await tempDir();
    expect(classifyCommand('git log', { root })).toEqual({ concurrencySafe: true, reads: [root] });
  });
});
