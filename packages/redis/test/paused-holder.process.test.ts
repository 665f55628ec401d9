import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import type { ToolCall, ToolResult } from '@toolwaves/core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { AgentConfig } from './fleet/agent-config.js';
import { type SpawnedAgent, spawnAgent } from './fleet/spawn-agent.js';
import { useTempWorkspaces } from './fleet/temp-workspaces.js';
import { describeWithRedis, freshNamespace } from './fleet-fixture.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

/** The lease of the scenario: A is paused three times as long. */
const LEASE_MS = 1000;
const PAUSE_MS = 3000;
/** Two processes started, a 3 s pause, a restart: on a loaded 2-core machine, well over 30 s. */
const SCENARIO_TIMEOUT_MS = 90_000;

const tempFolder = useTempWorkspaces('toolwaves-paused-');
const agents: SpawnedAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) {
    agent.child.kill('SIGKILL');
    await agent.exited;
  }
});

/** Every answer that says its effect may have happened (the executor's `outcome_unknown`). */
function saysOutcomeUnknown(result: ToolResult): boolean {
  return /outcome[ _](is )?unknown|effect is unknown/i.test(result.content);
}

/**
 * The promise of the fleet, as the model sees it: every call answered as a success took effect,
 * and a call answered as a failure did not, unless its answer says its outcome is unknown.
 */
function expectAnswersTrue(answers: readonly { result: ToolResult; landed: boolean }[]): void {
  for (const { result, landed } of answers) {
    if (!result.isError)
      expect(landed, `${result.toolCallId} succeeded: ${result.content}`).toBe(true);
    else if (!saysOutcomeUnknown(result)) {
      expect(landed, `${result.toolCallId} failed (${result.content})`).toBe(false);
    }
  }
}

function edit(id: string, agent: string): ToolCall {
  return {
    id,
    name: 'edit_file',
    input: { path: 'notes.txt', old_string: 'start\n', new_string: `start\n${agent} was here\n` },
  };
}

function increment(id: string): ToolCall {
  return { id, name: 'increment_counter', input: { name: 'hits' } };
}

describeWithRedis('a lock holder paused past its lease (SIGSTOP), two processes', () => {
  const state: { coordinatorRedis?: RedisServer; database?: RedisServer } = {};
  beforeAll(async () => {
    state.coordinatorRedis = await startRedisServer();
    state.database = await startRedisServer();
  });
  afterAll(async () => {
    await state.coordinatorRedis?.stop();
    await state.database?.stop();
  });

  /**
   * A starts `a`, reads, and is stopped right before it writes; once its lease has run out, B
   * runs `b` (optionally after Redis was killed and restarted empty, while A is stopped) and
   * finishes; A is resumed after at least {@link PAUSE_MS}. Returns both answers.
   */
  async function pauseA(options: {
    a: ToolCall;
    b: readonly ToolCall[];
    pauseBeforeWriting: string;
    restartRedis: boolean;
    root: string;
  }): Promise<{ a: ToolResult; b: ToolResult[] }> {
    const redis = state.coordinatorRedis as RedisServer;
    const common: Omit<AgentConfig, 'agent' | 'batches'> = {
      redisUrl: redis.url,
      namespace: freshNamespace(),
      leaseMs: LEASE_MS,
      root: options.root,
      log: join(options.root, '..', `markers-${Date.now()}.jsonl`),
      holdMs: 0,
      counterUrl: (state.database as RedisServer).url,
    };
    const a = spawnAgent({
      ...common,
      agent: 'A',
      pauseBeforeWriting: options.pauseBeforeWriting,
      batches: [[options.a]],
    });
    const b = spawnAgent({ ...common, agent: 'B', batches: options.b.map((call) => [call]) });
    agents.push(a, b);
    await Promise.all([a.ready, b.ready]);
    a.go();
    await a.paused;
    const pausedAt = performance.now();
    if (options.restartRedis) {
      await redis.stop();
      await redis.start();
    }
    b.go();
    const bResults = (await b.results).flat();
    const left = PAUSE_MS - (performance.now() - pausedAt);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    a.child.kill('SIGCONT');
    const [aResult] = (await a.results).flat();
    return { a: aResult as ToolResult, b: bResults };
  }

  it(
    'write_file (a blind write: no content to compare, the token refuses it): A paused right before it replaces the file while B writes it',
    async () => {
      const root = await tempFolder();
      await writeFile(join(root, 'notes.txt'), 'start\n');
      const write = (id: string, agent: string): ToolCall => ({
        id,
        name: 'write_file',
        input: { path: 'notes.txt', content: `${agent} wrote this\n` },
      });
      const { a, b } = await pauseA({
        a: write('a-write', 'A'),
        b: [write('b-write', 'B')],
        pauseBeforeWriting: 'notes.txt',
        restartRedis: false,
        root,
      });
      const text = await readFile(join(root, 'notes.txt'), 'utf8');
      const [bResult] = b as [ToolResult];
      expect(bResult.isError, bResult.content).toBe(false);
      expectAnswersTrue([
        { result: a, landed: text === 'A wrote this\n' },
        { result: bResult, landed: text === 'B wrote this\n' },
      ]);
      expect(text).toBe('B wrote this\n');
    },
    SCENARIO_TIMEOUT_MS,
  );

  for (const restartRedis of [false, true]) {
    const during = restartRedis ? ', and Redis killed and restarted empty during the pause' : '';

    it(
      `edit_file: A paused right before it replaces the file while B edits it${during}: every edit answered as done is in the file`,
      async () => {
        const root = await tempFolder();
        await writeFile(join(root, 'notes.txt'), 'start\n');
        const { a, b } = await pauseA({
          a: edit('a-edit', 'A'),
          b: [edit('b-edit', 'B')],
          pauseBeforeWriting: 'notes.txt',
          restartRedis,
          root,
        });
        const text = await readFile(join(root, 'notes.txt'), 'utf8');
        const [bResult] = b as [ToolResult];
        // B held a valid lease all along: its edit is done
        expect(bResult.isError, bResult.content).toBe(false);
        expectAnswersTrue([
          { result: a, landed: text.includes('A was here') },
          { result: bResult, landed: text.includes('B was here') },
        ]);
        expect(a.isError).toBe(true); // A's write was refused (or its lease reported lost)
        expect(text).toBe('start\nB was here\n');
      },
      SCENARIO_TIMEOUT_MS,
    );

    it(
      `a read-modify-write counter that checks tokens: A paused between its read and its write while B increments three times${during}: no increment lost`,
      async () => {
        const root = await tempFolder();
        const database = createClient({ url: (state.database as RedisServer).url });
        await database.connect();
        try {
          await database.del('counter:hits');
          const { a, b } = await pauseA({
            a: increment('a-inc'),
            b: [increment('b-inc-1'), increment('b-inc-2'), increment('b-inc-3')],
            pauseBeforeWriting: 'hits',
            restartRedis,
            root,
          });
          const value = Number(await database.hGet('counter:hits', 'value'));
          const all = [a, ...b];
          for (const result of b) expect(result.isError, result.content).toBe(false);
          const done = all.filter((r) => !r.isError).length;
          const unknown = all.filter((r) => r.isError && saysOutcomeUnknown(r)).length;
          // every increment answered as done is counted; one answered as failed is not, unless unknown
          expect(value).toBeGreaterThanOrEqual(done);
          expect(value).toBeLessThanOrEqual(done + unknown);
          expect(value).toBe(3);
        } finally {
          await database.close();
        }
      },
      SCENARIO_TIMEOUT_MS,
    );
  }
});
