import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import type { ToolCall, ToolResult } from '@toolwaves/core';
import { expect, it, type TestContext } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-support/redis-server.js';
import type { AgentConfig } from './fleet/agent-config.js';
import { type SpawnedAgent, spawnAgent } from './fleet/spawn-agent.js';
import { describeWithRedis, freshNamespace } from './fleet-fixture.js';

/**
 * The lease of the scenario: A is paused three times as long. Three seconds, so B (whose lease
 * must hold all along) renews in time on a loaded 2-core machine beside the other scenarios
 * (a 1 s lease, and a 2 s one, were lost there with the load at 25).
 */
const LEASE_MS = 3000;
const PAUSE_MS = 3 * LEASE_MS;
/** Two processes started, a 9 s pause, a restart: on a loaded 2-core machine, well over 30 s. */
const SCENARIO_TIMEOUT_MS = 90_000;

/** A scenario's own servers and processes (the scenarios run at once: they mostly wait). */
interface Scenario {
  /** The coordinator's server: one scenario kills and restarts it. */
  readonly coordinatorRedis: RedisServer;
  /** The counter tool's database. */
  readonly database: RedisServer;
  readonly agents: SpawnedAgent[];
  /** A new temporary folder (a workspace, a marker log's), removed when the test ends. */
  folder(): Promise<string>;
}

/** Starts a scenario's servers; its processes and servers are stopped when its test ends. */
async function openScenario(context: TestContext): Promise<Scenario> {
  const folders: string[] = [];
  const scenario: Scenario = {
    coordinatorRedis: await startRedisServer(),
    database: await startRedisServer(),
    agents: [],
    async folder() {
      const dir = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-paused-')));
      folders.push(dir);
      return dir;
    },
  };
  context.onTestFinished(async () => {
    for (const agent of scenario.agents) {
      agent.child.kill('SIGKILL');
      await agent.exited;
    }
    await scenario.coordinatorRedis.stop();
    await scenario.database.stop();
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  });
  return scenario;
}

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
  // One scenario starts its processes at a time: loading them is the CPU-heavy part, and ten
  // loading at once stall every process's lease renewals on a 2-core machine. The scenarios then
  // wait side by side (a paused process, a lease running out).
  let starting: Promise<void> = Promise.resolve();

  /**
   * A starts `a`, reads, and is stopped right before it writes; once its lease has run out, B
   * runs `b` (optionally after Redis was killed and restarted empty, while A is stopped) and
   * finishes; A is resumed after at least {@link PAUSE_MS}. Returns both answers.
   */
  async function pauseA(options: {
    scenario: Scenario;
    a: ToolCall;
    b: readonly ToolCall[];
    pauseBeforeWriting: string;
    restartRedis: boolean;
    /** The workspace (a folder of the scenario's). */
    root: string;
  }): Promise<{ a: ToolResult; b: ToolResult[] }> {
    const { scenario } = options;
    const redis = scenario.coordinatorRedis;
    const common: Omit<AgentConfig, 'agent' | 'batches'> = {
      redisUrl: redis.url,
      namespace: freshNamespace(),
      leaseMs: LEASE_MS,
      root: options.root,
      log: join(await scenario.folder(), 'markers.jsonl'),
      holdMs: 0,
      counterUrl: scenario.database.url,
    };
    const started = starting.then(async () => {
      const a = spawnAgent({
        ...common,
        agent: 'A',
        pauseBeforeWriting: options.pauseBeforeWriting,
        batches: [[options.a]],
      });
      const b = spawnAgent({ ...common, agent: 'B', batches: options.b.map((call) => [call]) });
      scenario.agents.push(a, b);
      await Promise.all([a.ready, b.ready]);
      return { a, b };
    });
    starting = started.then(
      () => undefined,
      () => undefined,
    );
    const { a, b } = await started;
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

  it.concurrent(
    'write_file (a blind write: no content to compare, the token refuses it): A paused right before it replaces the file while B writes it',
    async (context) => {
      const scenario = await openScenario(context);
      const root = await scenario.folder();
      await writeFile(join(root, 'notes.txt'), 'start\n');
      const write = (id: string, agent: string): ToolCall => ({
        id,
        name: 'write_file',
        input: { path: 'notes.txt', content: `${agent} wrote this\n` },
      });
      const { a, b } = await pauseA({
        scenario,
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

    it.concurrent(
      `edit_file: A paused right before it replaces the file while B edits it${during}: every edit answered as done is in the file`,
      async (context) => {
        const scenario = await openScenario(context);
        const root = await scenario.folder();
        await writeFile(join(root, 'notes.txt'), 'start\n');
        const { a, b } = await pauseA({
          scenario,
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

    it.concurrent(
      `a read-modify-write counter that checks tokens: A paused between its read and its write while B increments three times${during}: no increment lost`,
      async (context) => {
        const scenario = await openScenario(context);
        const root = await scenario.folder();
        const database = createClient({ url: scenario.database.url });
        await database.connect();
        try {
          await database.del('counter:hits');
          const { a, b } = await pauseA({
            scenario,
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
