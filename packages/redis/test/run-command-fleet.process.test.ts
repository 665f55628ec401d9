import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import type { CoordinationRequest, Coordinator } from '@toolwaves/core';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { fsToolsModule, probeSandbox } from '@toolwaves/tools-fs';
import { Container } from 'inversify';
import { afterEach, expect, it, vi } from 'vitest';
import {
  coordinatorFor,
  describeWithRedis,
  freshNamespace,
  lockRequest,
  redisUrl,
  tracked,
} from './fleet-fixture.js';

const sandbox = probeSandbox();
if (!sandbox.available) {
  console.log(`[skip] run_command read-only fleet test: no bubblewrap here (${sandbox.reason})`);
}

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/**
 * One agent's process: a workspace on `root` with `run_command`, and a Dispatcher on its own
 * coordinator. `asked` resolves when the Dispatcher has sent its first request to Redis.
 */
function agent(options: {
  root: string;
  namespace: string;
  fleetExclusiveForUnsafe?: boolean | undefined;
}) {
  const coordinator = coordinatorFor({ namespace: options.namespace });
  let sent: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => {
    sent = resolve;
  });
  const watching: Coordinator = {
    acquire: (request: CoordinationRequest) => {
      const granted = coordinator.acquire(request);
      sent();
      return granted;
    },
  };
  const container = new Container();
  container.load(fsToolsModule({ root: options.root, runCommand: true }));
  const dispatcher = new Dispatcher({
    registry: ToolRegistry.fromContainer(container),
    coordinator: watching,
    ...(options.fleetExclusiveForUnsafe === undefined
      ? {}
      : { fleetExclusiveForUnsafe: options.fleetExclusiveForUnsafe }),
  });
  return { coordinator, dispatcher, asked };
}

async function workspace(): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-fleet-shell-')));
  made.push(root);
  await writeFile(join(root, 'a.txt'), 'start\n');
  await writeFile(join(root, 'b.txt'), 'other\n');
  return root;
}

describeWithRedis('run_command with two coordinators on one Redis', () => {
  const cases = [
    {
      command: "sed -i 's/held/edited/' a.txt",
      // It ran after the holder's write: it edited what the holder wrote.
      check: async (root: string) =>
        expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('edited\n'),
    },
    {
      command: 'rm a.txt',
      // It ran after the holder's write: what the holder wrote is gone.
      check: async (root: string) => expect(existsSync(join(root, 'a.txt'))).toBe(false),
    },
  ];

  // By default a command that is not read-only holds the whole namespace (it may not run
  // alongside anything); with `fleetExclusiveForUnsafe: false` it holds what it declares, a
  // write on the workspace root. Either way it must wait for a lock on a file of the workspace.
  const holds = [
    { holds: 'the namespace', fleetExclusiveForUnsafe: undefined },
    { holds: 'the workspace root', fleetExclusiveForUnsafe: false },
  ];
  const table = cases.flatMap((entry) => holds.map((hold) => ({ ...entry, ...hold })));

  it.each(table)(
    '`$command` (holding $holds) waits for another agent\u2019s write lock on a file of the workspace',
    async ({ command, check, fleetExclusiveForUnsafe }) => {
      const root = await workspace();
      const namespace = freshNamespace();
      const other = coordinatorFor({ namespace });
      const held = await other.acquire(lockRequest([`w fs:${join(root, 'a.txt')}`]));
      const me = agent({ root, namespace, fleetExclusiveForUnsafe });
      const redis = createClient({ url: redisUrl });
      await redis.connect();
      try {
        const running = tracked(
          me.dispatcher.dispatch([{ id: 'cmd', name: 'run_command', input: { command } }]),
        );
        await me.asked;
        // Its request waits in the namespace's queue in Redis, behind the held lock.
        await vi.waitFor(async () => {
          expect(await redis.zCard(`toolwaves:{${namespace}}:queue`)).toBe(1);
        });
        expect(running.status).toBe('pending');
        expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('start\n');
        await writeFile(join(root, 'a.txt'), 'held\n');
        await held.release();
        const [result] = await running.promise;
        expect(result?.isError).toBe(false);
        await check(root);
      } finally {
        await redis.close();
      }
    },
  );

  // Without a sandbox no command is read-only: this one would wait like the others.
  it.skipIf(!sandbox.available)(
    'a read-only command of another file does not wait for that lock',
    async () => {
      const root = await workspace();
      const namespace = freshNamespace();
      const other = coordinatorFor({ namespace });
      const held = await other.acquire(lockRequest([`w fs:${join(root, 'a.txt')}`]));
      const me = agent({ root, namespace });
      const [result] = await me.dispatcher.dispatch([
        { id: 'cat', name: 'run_command', input: { command: 'cat b.txt' } },
      ]);
      expect(result?.content).toBe('other\n[exit code 0]');
      await held.release();
    },
  );
});
