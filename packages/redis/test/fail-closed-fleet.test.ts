import { createClient } from '@redis/client';
import { type Access, fnTool, type Tool, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { expect, it, vi } from 'vitest';
import { coordinatorFor, describeWithRedis, freshNamespace, redisUrl } from './fleet-fixture.js';

/**
 * Two agents (two Dispatchers, each with its own coordinator) on one real Redis. Agent 1 edits
 * a file, holding its write lock while the edit runs; agent 2 runs a call that may not run
 * alongside others: a tool that is not concurrency-safe and declares nothing, or one whose
 * declaration throws. Such a call holds the whole namespace (fail closed), so it must wait for
 * agent 1's edit to end, though it names no key of its own.
 */
async function secondAgentWaitsForTheEdit(
  unsafeTool: (log: string[]) => Tool<unknown>,
): Promise<void> {
  const namespace = freshNamespace();
  const log: string[] = [];
  const unsafe = unsafeTool(log);
  let finishEdit: () => void = () => undefined;
  const editGate = new Promise<void>((resolve) => {
    finishEdit = resolve;
  });
  let editStarted: () => void = () => undefined;
  const editing = new Promise<void>((resolve) => {
    editStarted = resolve;
  });
  const agentOne = new Dispatcher({
    registry: new ToolRegistry().add(
      fnTool({
        name: 'edit_file',
        description: 'edits src/a.ts',
        concurrencySafe: true,
        access: [{ key: 'fs:/repo/src/a.ts', mode: 'write' }],
        execute: async () => {
          log.push('agent 1 edit starts');
          editStarted();
          await editGate;
          log.push('agent 1 edit ends');
          return 'edited';
        },
      }),
    ),
    coordinator: coordinatorFor({ namespace }),
  });
  const agentTwo = new Dispatcher({
    registry: new ToolRegistry().add(unsafe),
    coordinator: coordinatorFor({ namespace }),
  });
  const redis = createClient({ url: redisUrl });
  await redis.connect();
  try {
    const edit = agentOne.dispatch([{ id: 'e1', name: 'edit_file', input: {} }]);
    await editing;
    const second = agentTwo.dispatch([{ id: 'u1', name: unsafe.name, input: {} }]);
    // agent 2's call is queued in Redis, for the whole namespace
    await vi.waitFor(async () => {
      expect(await redis.zCard(`toolwaves:{${namespace}}:queue`)).toBe(1);
      expect(await redis.zCard(`toolwaves:{${namespace}}:exclusive`)).toBe(1);
    });
    expect(log).toEqual(['agent 1 edit starts']);
    finishEdit();
    const [edited] = await edit;
    const [ran] = await second;
    expect(edited?.content).toBe('edited');
    expect(ran?.isError).toBe(false);
    expect(log).toEqual([
      'agent 1 edit starts',
      'agent 1 edit ends',
      `agent 2 ${unsafe.name} runs`,
    ]);
  } finally {
    await redis.close();
  }
}

describeWithRedis('fail closed across the fleet (two agents, one Redis)', () => {
  it('an unsafe tool that declares no access holds the namespace: it waits for the other agent`s write lock', async () => {
    await secondAgentWaitsForTheEdit((log) =>
      fnTool({
        name: 'run_tests',
        description: 'runs the test suite (not concurrency-safe, declares nothing)',
        execute: () => {
          log.push('agent 2 run_tests runs');
          return 'passed';
        },
      }),
    );
  });

  it('so does a tool whose access declaration throws', async () => {
    await secondAgentWaitsForTheEdit((log) =>
      fnTool({
        name: 'deploy',
        description: 'its access declaration throws',
        concurrencySafe: true,
        access: (): readonly Access[] => {
          throw new Error('cannot tell what a deploy touches');
        },
        execute: () => {
          log.push('agent 2 deploy runs');
          return 'deployed';
        },
      }),
    );
  });
});
