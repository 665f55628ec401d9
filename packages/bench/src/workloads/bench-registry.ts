import { ToolRegistry } from '@toolwaves/core';
import { fsToolsModule } from '@toolwaves/tools-fs';
import { Container } from 'inversify';
import { runCheckTool } from './run-check-tool.js';

/**
 * The tools the workloads call, on a workspace: the real filesystem tools of
 * `@toolwaves/tools-fs` (through their inversify module, so their declarations are the real
 * ones) plus {@link runCheckTool}, which is not concurrency-safe.
 *
 * @example
 * const registry = benchRegistry({ root: await createWorkspace({ layout: workspaceLayout() }) });
 * @see generateBatches
 */
export function benchRegistry(options: { root: string }): ToolRegistry {
  const container = new Container();
  container.load(fsToolsModule({ root: options.root }));
  return ToolRegistry.fromContainer(container).add(runCheckTool({ root: options.root }));
}
