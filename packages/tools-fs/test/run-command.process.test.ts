import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolRegistry } from '@toolwaves/core';
import { greedyPlanner } from '@toolwaves/planner';
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import {
  FsToolsError,
  fsToolsModule,
  probeSandbox,
  RUN_COMMAND_MAX_OUTPUT_CHARS,
  RunCommandTool,
} from '../src/index.js';
import { context, fsFixture } from './fixture.js';
import { tempDir } from './temp-dir.js';

// Without a sandbox no command is read-only: the tests of read-only declarations skip.
const sandbox = probeSandbox();
if (!sandbox.available) {
  console.log(`[skip] run_command read-only declarations: no bubblewrap here (${sandbox.reason})`);
}

async function withRunCommand(tree = {}, options: { cachedReads?: boolean } = {}) {
  const fixture = await fsFixture({ tree, module: { runCommand: true, ...options } });
  const tool = fixture.container.get(RunCommandTool);
  return {
    ...fixture,
    tool,
    run: (command: string, timeoutMs?: number, signal?: AbortSignal) =>
      tool.execute(
        { command, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
        signal === undefined ? context('cmd') : { ...context('cmd'), signal },
      ),
  };
}

describe('run_command in fsToolsModule', () => {
  it('is bound only when asked for', async () => {
    const root = await tempDir();
    const off = new Container();
    off.load(fsToolsModule({ root }));
    expect(ToolRegistry.fromContainer(off).names()).not.toContain('run_command');
    const on = new Container();
    on.load(fsToolsModule({ root, runCommand: true }));
    expect(ToolRegistry.fromContainer(on).names()).toContain('run_command');
  });

  it('refuses a runCommand that is not a boolean, naming it', async () => {
    const root = await tempDir();
    let error: unknown;
    try {
      fsToolsModule({ root, runCommand: 'yes' as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FsToolsError);
    expect((error as FsToolsError).code).toBe('invalid_options');
    expect((error as FsToolsError).message).toMatch(/`runCommand`.*"yes"/);
  });
});

describe('run_command options', () => {
  it('refuses a sandbox or a bwrap it does not know, naming the field and the value', async () => {
    const root = await tempDir();
    for (const [runCommand, message] of [
      [{ sandbox: 'none' }, /`runCommand.sandbox`.*"none"/],
      [{ bwrap: '' }, /`runCommand.bwrap`.*""/],
    ] as const) {
      expect(() => fsToolsModule({ root, runCommand: runCommand as never })).toThrow(message);
    }
  });
});

describe('run_command declarations', () => {
  it.skipIf(!sandbox.available)(
    'a read-only pipeline reads the canonical keys of what it names',
    async () => {
      const { tool, root } = await withRunCommand({ src: { 'a.ts': 'x' } });
      const input = { command: 'cd src && cat a.ts | wc -l' };
      expect(tool.isConcurrencySafe(input)).toBe(true);
      expect(tool.access(input)).toEqual([
        { key: `fs:${join(root, 'src', 'a.ts')}`, mode: 'read' },
      ]);
      expect(tool.access({ command: 'git status' })).toEqual([{ key: `fs:${root}`, mode: 'read' }]);
    },
  );

  it('a write, an unknown program or a path outside the workspace is not concurrency-safe and holds the root', async () => {
    const { tool, root } = await withRunCommand();
    for (const command of ['rm -rf src', 'ls > out.txt', 'npm test', 'cat ../../etc/passwd']) {
      expect(tool.isConcurrencySafe({ command })).toBe(false);
      expect(tool.access({ command })).toEqual([{ key: `fs:${root}`, mode: 'write' }]);
    }
  });
});

describe.skipIf(!sandbox.available)('run_command in a plan', () => {
  it('reads run together, a command that writes runs alone, and a read waits for an edit of its file', async () => {
    const { container } = await withRunCommand({ 'a.txt': 'a', 'b.txt': 'b' });
    const registry = ToolRegistry.fromContainer(container);
    const calls = [
      { id: '0', name: 'run_command', input: { command: 'cat a.txt | wc -l' } },
      { id: '1', name: 'run_command', input: { command: 'git status --short' } },
      { id: '2', name: 'edit_file', input: { path: 'b.txt', old_string: 'b', new_string: 'c' } },
      { id: '3', name: 'run_command', input: { command: 'grep -c c b.txt' } },
      { id: '4', name: 'run_command', input: { command: 'npm test' } },
    ];
    const plan = greedyPlanner().plan(registry.toPlanNodes(calls));
    // `git status` reads the whole root, so the edit of b.txt goes after it, and the grep of
    // b.txt after the edit; `npm test` is not concurrency-safe: a wave of its own.
    expect(plan.waves.map((wave) => wave.calls)).toEqual([[0, 1], [2], [3], [4]]);
  });
});

describe('run_command execution', () => {
  it('runs in the workspace root and answers the output and exit code', async () => {
    const { run, root } = await withRunCommand({ 'a.txt': 'alpha\n' });
    expect(await run('pwd && cat a.txt')).toEqual({
      content: `${root}\nalpha\n[exit code 0]`,
      isError: false,
    });
  });

  it('passes only the stated environment, with an empty private HOME that is not the root', async () => {
    const { run, root } = await withRunCommand();
    process.env.TOOLWAVES_TEST_SECRET = 'hunter2';
    try {
      const result = await run(
        'echo "secret=$TOOLWAVES_TEST_SECRET lang=$LANG locks=$GIT_OPTIONAL_LOCKS global=$GIT_CONFIG_GLOBAL nosystem=$GIT_CONFIG_NOSYSTEM pager=$GIT_PAGER"; echo "$HOME"; ls -A "$HOME" | wc -l',
      );
      const [variables, home, entries] = result.content.split('\n');
      expect(variables).toBe('secret= lang=C.UTF-8 locks=0 global=/dev/null nosystem=1 pager=cat');
      expect(home).not.toBe(root);
      expect(home?.startsWith(`${root}/`)).toBe(false);
      expect(entries).toBe('0');
    } finally {
      delete process.env.TOOLWAVES_TEST_SECRET;
    }
  });

  it('a non-zero exit is a soft error with stderr and the code', async () => {
    const { run } = await withRunCommand();
    expect(await run('echo oops >&2; exit 3')).toEqual({
      content: 'oops\n[exit code 3]',
      isError: true,
    });
  });

  it('stops a command at its timeout, and says so', async () => {
    const { run } = await withRunCommand();
    const result = await run('sleep 30', 50);
    expect(result).toEqual({ content: '[timed out after 50 ms: stopped]', isError: true });
  });

  it('caps the output and says how much was cut', async () => {
    const { run } = await withRunCommand();
    const total = RUN_COMMAND_MAX_OUTPUT_CHARS + 1234;
    const result = await run(`head -c ${total} /dev/zero | tr '\\0' x`);
    const [output, note, exit] = result.content.split('\n');
    expect(output).toBe('x'.repeat(RUN_COMMAND_MAX_OUTPUT_CHARS));
    expect(note).toBe('[output cut: 1234 more characters]');
    expect(exit).toBe('[exit code 0]');
  });

  it('rejects with the reason when the call is cancelled', async () => {
    const { run } = await withRunCommand();
    const controller = new AbortController();
    const running = run('sleep 30', undefined, controller.signal);
    controller.abort(new Error('cancelled by the user'));
    await expect(running).rejects.toThrow('cancelled by the user');
  });

  it('clears the read cache after a command that may have written', async () => {
    const fixture = await withRunCommand({ 'a.txt': 'old' }, { cachedReads: true });
    const readFileTool = ToolRegistry.fromContainer(fixture.container).get('read_file')!;
    const read = async () =>
      JSON.stringify(await readFileTool.execute({ path: 'a.txt' }, context()));
    expect(await read()).toContain('old');
    expect(await read()).toContain('old');
    expect(fixture.cache.stats.hits).toBe(1);
    expect(await fixture.run('cat a.txt')).toEqual({
      content: 'old\n[exit code 0]',
      isError: false,
    });
    expect(fixture.cache.stats.hits).toBe(1);
    await fixture.run('printf new > a.txt');
    expect(await readFile(join(fixture.root, 'a.txt'), 'utf8')).toBe('new');
    expect(await read()).toContain('new');
  });
});
