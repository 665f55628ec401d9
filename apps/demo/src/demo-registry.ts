import 'reflect-metadata';
import { bindTools, ToolRegistry } from '@toolwaves/core';
import { withLatency } from '@toolwaves/core/testing';
import { fsToolsModule } from '@toolwaves/tools-fs';
import { Container } from 'inversify';
import { demoLatencyMs } from './latency-profile.js';
import { RunCheckTool } from './run-check-tool.js';

/**
 * The demo's tools: the sandboxed fs tools on `root` and `run_check`, resolved from an inversify
 * container, each call first waiting its injected latency (scaled by `latency`; 0 = none).
 */
export function demoRegistry(options: { root: string; latency: number }): ToolRegistry {
  const container = new Container();
  container.load(fsToolsModule({ root: options.root }));
  bindTools(container, [RunCheckTool]);
  const registry = ToolRegistry.fromContainer(container);
  if (options.latency === 0) return registry;
  return withLatency({ registry, latencyMs: (name) => demoLatencyMs(name, options.latency) });
}
