import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync } from 'node:fs';
import { mkdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCommandEnvironment } from '../src/command-environment.js';
import { SANDBOX_HOME, sandboxArguments } from '../src/command-sandbox.js';
import { probeSandbox, RunCommandTool } from '../src/index.js';
import { runShell } from '../src/run-shell.js';
import { context, fsFixture } from './fixture.js';
import { tempDir } from './temp-dir.js';

const sandbox = probeSandbox();
if (!sandbox.available) {
  console.log(`[skip] run_command sandbox tests: no bubblewrap here (${sandbox.reason})`);
}
const describeWithSandbox = describe.skipIf(!sandbox.available);

/** Runs `command` exactly as `run_command` runs a read-only one: the read-only sandbox. */
function runReadOnly(root: string, command: string) {
  if (!sandbox.available) throw new Error('no sandbox');
  return runShell({
    file: sandbox.bwrap,
    args: sandboxArguments({ root, writable: false, command }),
    cwd: root,
    env: runCommandEnvironment({ root, home: SANDBOX_HOME, readOnly: true }),
    timeoutMs: 20_000,
    signal: new AbortController().signal,
  });
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

describeWithSandbox('the read-only sandbox', () => {
  it('refuses a write in the root, in its own folder and in /tmp of the host', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'a.txt'), 'a');
    const result = await runReadOnly(
      root,
      'echo x > a.txt; echo x > new.txt; mkdir d; rm a.txt; touch /var/tmp/toolwaves-x; echo done',
    );
    expect(result.content).toContain('Read-only file system');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a');
    expect(() => readFileSync(join(root, 'new.txt'))).toThrow(/ENOENT/);
    expect(() => readFileSync('/var/tmp/toolwaves-x')).toThrow(/ENOENT/);
  });

  it('refuses a network connection, even to the host loopback', async () => {
    const root = await tempDir();
    const server = createServer((socket) => socket.end('hello'));
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const connect = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log(e.code))"`;
    const result = await runReadOnly(root, connect);
    expect(result.content).not.toContain('CONNECTED');
    expect(result.content).toMatch(/ECONNREFUSED|ENETUNREACH/);
  });

  it('shows nothing of the host outside the root but the system folders', async () => {
    const outside = await tempDir();
    const root = await tempDir();
    await writeFile(join(outside, 'secret.txt'), 'hunter2');
    const result = await runReadOnly(
      root,
      `cat ${outside}/secret.txt; ls /root /home /work /var 2>&1 | head -3; cat /etc/shadow; echo end`,
    );
    expect(result.content).not.toContain('hunter2');
    expect(result.content).toMatch(/No such file or directory/);
    expect(result.content).toContain('end');
  });

  it('a link swapped after planning to point outside is not followed out', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.txt'), 'hunter2');
    const { root, container } = await fsFixture({
      tree: { 'a.txt': 'inside' },
      module: { runCommand: true },
    });
    const tool = container.get(RunCommandTool);
    await symlink(join(root, 'a.txt'), join(root, 'link'));
    const input = { command: 'cat link' };
    expect(tool.isConcurrencySafe(input)).toBe(true);
    await unlink(join(root, 'link'));
    await symlink(join(outside, 'secret.txt'), join(root, 'link'));
    const result = await tool.execute(input, context('swap'));
    expect(result.content).not.toContain('hunter2');
    expect(result.isError).toBe(true);
  });

  it('git diff refreshes the index outside the sandbox; classified read-only, it cannot', async () => {
    const { root, container } = await fsFixture({
      tree: { 'a.txt': 'a\n' },
      module: { runCommand: true },
    });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'a');
    // Same content, older times: the index's stat data is stale, so `git diff` would rewrite it.
    utimesSync(join(root, 'a.txt'), new Date('2020-01-01'), new Date('2020-01-01'));
    const hash = () =>
      createHash('sha256')
        .update(readFileSync(join(root, '.git/index')))
        .digest('hex');
    const before = hash();
    const tool = container.get(RunCommandTool);
    expect(tool.isConcurrencySafe({ command: 'git diff' })).toBe(true);
    const result = await tool.execute({ command: 'git diff' }, context('diff'));
    expect(result).toEqual({ content: '[exit code 0]', isError: false });
    expect(hash()).toBe(before);
  });
});

describe('the stated environment', () => {
  it('git never looks for a repository above the root', async () => {
    const outer = await tempDir();
    execFileSync('git', ['init', '-q'], { cwd: outer });
    const root = join(outer, 'inner');
    await mkdir(root);
    await writeFile(join(root, 'a.txt'), 'a\n');
    const result = await runShell({
      file: '/bin/sh',
      args: ['-c', 'git status --short; git log -1'],
      cwd: root,
      env: runCommandEnvironment({ root, home: await tempDir(), readOnly: true }),
      timeoutMs: 10_000,
      signal: new AbortController().signal,
    });
    expect(result.content).toMatch(/not a git repository/);
    // Without the ceiling, git finds the repository above and lists the root's file.
    const above = execFileSync('git', ['status', '--short'], { cwd: root, encoding: 'utf8' });
    expect(above).toBe('?? ./\n');
  });
});

describe('without bubblewrap', () => {
  it('every command is unsafe and holds the workspace, the tool says so once and still runs them', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const module = { runCommand: { bwrap: '/nonexistent/bwrap' } };
    const { root, container } = await fsFixture({ tree: { 'a.txt': 'a\n' }, module });
    const tool = container.get(RunCommandTool);
    const again = (await fsFixture({ tree: {}, module })).container.get(RunCommandTool);
    expect(tool.sandbox.available).toBe(false);
    expect(again.sandbox.available).toBe(false);
    for (const command of ['ls', 'cat a.txt', 'git status', 'wc -l a.txt', 'echo hi']) {
      expect(tool.isConcurrencySafe({ command })).toBe(false);
      expect(tool.access({ command })).toEqual([{ key: `fs:${root}`, mode: 'write' }]);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^run_command: no sandbox .*every command runs alone$/,
    );
    warn.mockRestore();
    expect(await tool.execute({ command: 'cat a.txt' }, context('cat'))).toEqual({
      content: 'a\n[exit code 0]',
      isError: false,
    });
  });

  it('with sandbox: workspace-write, no command runs unconfined: it is refused', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { root, container } = await fsFixture({
      tree: {},
      module: { runCommand: { sandbox: 'workspace-write', bwrap: '/nonexistent/bwrap' } },
    });
    warn.mockRestore();
    const result = await container
      .get(RunCommandTool)
      .execute({ command: 'touch made.txt' }, context('touch'));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/not run: sandbox 'workspace-write' was asked for/);
    expect(() => readFileSync(join(root, 'made.txt'))).toThrow(/ENOENT/);
  });
});

describeWithSandbox('sandbox: workspace-write', () => {
  it('lets other commands write the root, and nothing else, and reach no network', async () => {
    const outside = await tempDir();
    const { root, container } = await fsFixture({
      tree: {},
      module: { runCommand: { sandbox: 'workspace-write' } },
    });
    await mkdir(join(outside, 'd'));
    const tool = container.get(RunCommandTool);
    const command = `echo made > made.txt && touch ${outside}/d/x; echo $?`;
    expect(tool.isConcurrencySafe({ command })).toBe(false);
    const result = await tool.execute({ command }, context('write'));
    expect(await readFile(join(root, 'made.txt'), 'utf8')).toBe('made\n');
    expect(() => readFileSync(join(outside, 'd', 'x'))).toThrow(/ENOENT/);
    expect(result.content).toMatch(/No such file or directory|Read-only/);
    const server = createServer((socket) => socket.end('hello'));
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const connect = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => console.log('CONNECTED')).on('error', (e) => console.log(e.code))"`;
    const online = await tool.execute({ command: connect }, context('connect'));
    expect(online.content).not.toContain('CONNECTED');
    expect(online.content).toMatch(/ECONNREFUSED|ENETUNREACH/);
  });
});
