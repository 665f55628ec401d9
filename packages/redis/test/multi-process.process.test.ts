import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolCall } from '@toolwaves/core';
import { expect, it } from 'vitest';
import type { AgentConfig } from './fleet/agent-config.js';
import { overlappingConflicts, readRuns, runsConflict } from './fleet/marker-log.js';
import { spawnAgent } from './fleet/spawn-agent.js';
import { useTempWorkspaces } from './fleet/temp-workspaces.js';
import { describeWithRedis, freshNamespace, redisUrl, TEST_LEASE_MS } from './fleet-fixture.js';

const tempFolder = useTempWorkspaces('toolwaves-fleet-');

const AGENTS = ['ann', 'bob', 'cyd'];
const FILES = ['a.txt', 'b.txt', 'c.txt'];
const BATCHES = 4;
/** Child processes started and run on a loaded 2-core machine, beside the other suites: well over 30 s at times. */
const PROCESSES_TIMEOUT_MS = 90_000;

/** Agent `agent`'s batch `i`: bump its counter in every file, append a line to a.txt, read b and c. */
function batch(agent: string, i: number): ToolCall[] {
  const bumps = FILES.map((file) => ({
    id: `${agent}-${i}-bump-${file}`,
    name: 'edit_file',
    input: { path: file, old_string: `${agent}: ${i}\n`, new_string: `${agent}: ${i + 1}\n` },
  }));
  return [
    ...bumps,
    { id: `${agent}-${i}-read-b`, name: 'read_file', input: { path: 'b.txt' } },
    {
      id: `${agent}-${i}-append`,
      name: 'edit_file',
      input: { path: 'a.txt', old_string: '<END>', new_string: `${agent} batch ${i}\n<END>` },
    },
    { id: `${agent}-${i}-read-c`, name: 'read_file', input: { path: 'c.txt' } },
  ];
}

// The two scenarios run at once, each in folders and a namespace of its own.
describeWithRedis('many processes, one workspace, one Redis', () => {
  it.concurrent(
    'interleaved edits and appends from three processes: no update lost, no conflicting calls overlap',
    async (context) => {
      const root = await tempFolder(context);
      const log = join(await tempFolder(context), 'markers.jsonl');
      for (const file of FILES) {
        await writeFile(join(root, file), `${AGENTS.map((a) => `${a}: 0\n`).join('')}<END>\n`);
      }
      const namespace = freshNamespace();
      const agents = AGENTS.map((agent) =>
        spawnAgent({
          agent,
          redisUrl,
          namespace,
          // nothing here waits for a lease to run out: the default, so no stall loses one
          leaseMs: 10_000,
          root,
          log,
          holdMs: 2,
          batches: Array.from({ length: BATCHES }, (_, i) => batch(agent, i)),
        }),
      );
      await Promise.all(agents.map((a) => a.ready));
      for (const a of agents) a.go();
      const results = await Promise.all(agents.map((a) => a.results));

      for (const result of results.flat(2))
        expect(result.isError ?? false, result.content).toBe(false);
      for (const file of FILES) {
        const text = await readFile(join(root, file), 'utf8');
        for (const agent of AGENTS) expect(text).toContain(`${agent}: ${BATCHES}\n`);
      }
      const appended = (await readFile(join(root, 'a.txt'), 'utf8')).split('\n');
      for (const agent of AGENTS) {
        for (let i = 0; i < BATCHES; i += 1) {
          expect(appended.filter((line) => line === `${agent} batch ${i}`)).toHaveLength(1);
        }
      }

      const runs = readRuns(log);
      expect(runs).toHaveLength(AGENTS.length * BATCHES * 6);
      expect(overlappingConflicts(runs)).toEqual([]);
      // the stream really interleaved: some runs of different agents overlapped (reads share)
      const shared = runs.some((a) =>
        runs.some((b) => a.agent !== b.agent && a.start < b.end && b.start < a.end),
      );
      expect(shared).toBe(true);
      // every tool saw its fencing token, and conflicting runs took tokens in the order they ran
      for (const a of runs) {
        expect(a.token).toBeGreaterThan(0);
        for (const b of runs) {
          if (a.start < b.start && runsConflict(a, b))
            expect(b.token).toBeGreaterThan(a.token ?? 0);
        }
      }
    },
    PROCESSES_TIMEOUT_MS,
  );

  it.concurrent(
    'a process killed while holding a write lock: the next writer proceeds once its lease expires, and no half-written file is visible',
    async (context) => {
      const root = await tempFolder(context);
      const log = join(await tempFolder(context), 'markers.jsonl');
      const before = 'old content\n';
      const after = `${'new content '.repeat(400_000)}\n`;
      await writeFile(join(root, 'big.txt'), before);
      const namespace = freshNamespace();
      const common: Omit<AgentConfig, 'agent' | 'batches'> = {
        redisUrl,
        namespace,
        // waited for once the victim is killed; twice the in-process tests' lease, as the
        // victim's renewals compete with the survivor's process starting up
        leaseMs: 2 * TEST_LEASE_MS,
        root,
        log,
        holdMs: 0,
      };
      const victim = spawnAgent({
        ...common,
        agent: 'victim',
        // after its write it keeps the lock (as a tool with more to do would): the kill lands
        // while the lock is held, during the write or after it
        holdAfterMs: 60_000,
        batches: [
          [{ id: 'victim-write', name: 'write_file', input: { path: 'big.txt', content: after } }],
        ],
      });
      await victim.ready;
      victim.go();
      await victim.started('victim-write');
      const survivor = spawnAgent({
        ...common,
        agent: 'survivor',
        batches: [
          [
            {
              id: 'survivor-write',
              name: 'write_file',
              input: { path: 'big.txt', content: 'survivor\n' },
            },
          ],
        ],
      });
      await survivor.ready;
      survivor.go();
      victim.child.kill('SIGKILL');
      await victim.exited;

      const seen = await readFile(join(root, 'big.txt'), 'utf8');
      expect([before, after]).toContain(seen);

      const result = (await survivor.results)[0]?.[0];
      expect(result?.isError ?? true, String(result?.content)).toBe(false);
      expect(await readFile(join(root, 'big.txt'), 'utf8')).toBe('survivor\n');
      const runs = readRuns(log);
      const killed = runs.find((r) => r.call === 'victim-write');
      const next = runs.find((r) => r.call === 'survivor-write');
      expect(killed?.end).toBe(Infinity);
      expect(next?.start).toBeGreaterThan(killed?.start ?? Infinity);
      expect(next?.token).toBeGreaterThan(killed?.token ?? Infinity);
    },
    PROCESSES_TIMEOUT_MS,
  );
});
