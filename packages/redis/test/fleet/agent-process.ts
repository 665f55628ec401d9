/**
 * One agent process of the multi-process tests: its own Dispatcher over the real fs tools
 * (wrapped to write markers) on the shared workspace, coordinated through Redis. Run bundled
 * (`bundleScript`); the first argument is the path of its config (JSON).
 */
import { readFileSync } from 'node:fs';
import { type Tool, ToolRegistry, type ToolResult } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { fsToolsModule } from '@toolwaves/tools-fs';
import { Container } from 'inversify';
import { redisCoordinator } from '../../src/index.js';
import { type AgentConfig, READY_LINE, RESULTS_PREFIX } from './agent-config.js';
import { counterTool } from './counter-tool.js';
import { markedTool } from './marked-tool.js';
import { pauseBeforeWriting } from './pause-before-writing.js';

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as AgentConfig;
const pause = pauseBeforeWriting(config.pauseBeforeWriting, { at: config.pauseAt });

const container = new Container();
container.load(fsToolsModule({ root: config.root }));
const fsTools = ToolRegistry.fromContainer(container);
const registry = new ToolRegistry();
for (const name of fsTools.names()) {
  const tool = fsTools.get(name);
  if (tool !== undefined) registry.add(markedTool(tool, config));
}
const counter =
  config.counterUrl === undefined
    ? undefined
    : counterTool({ url: config.counterUrl, beforeWrite: pause });
if (counter !== undefined) registry.add(markedTool(counter.tool as Tool, config));

const fleet =
  config.redisUrl === ''
    ? undefined
    : redisCoordinator({
        url: config.redisUrl,
        namespace: config.namespace,
        leaseMs: config.leaseMs,
      });
const dispatcher = new Dispatcher({
  registry,
  mode: 'parallel',
  ...(fleet === undefined ? {} : { coordinator: fleet }),
});

// Every agent starts its batches at once: it says it is ready and waits for a line on stdin.
// (No top-level `await`: the bundle is a CommonJS script, for its code cache.)
async function run(): Promise<void> {
  process.stdout.write(`${READY_LINE}\n`);
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();

  const results: ToolResult[][] = [];
  for (const batch of config.batches) results.push(await dispatcher.dispatch(batch));
  process.stdout.write(`${RESULTS_PREFIX}${JSON.stringify(results)}\n`);
  await fleet?.close();
  // a tool still running (its call answered when its lease was lost) finishes before the exit
  await counter?.close();
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
