import { ToolRegistry } from '@toolwaves/core';
import { FS_WORKSPACE, fsToolsModule } from '@toolwaves/tools-fs';
import { Container } from 'inversify';
import { remoteTools } from './remote-tools.js';
import { runCheckTool } from './run-check-tool.js';

/**
 * The tools the workloads call, on a workspace: the real filesystem tools of
 * `@toolwaves/tools-fs` (through their inversify module, so their declarations are the real
 * ones), {@link runCheckTool}, which is not concurrency-safe, and the {@link remoteTools}.
 *
 * @example
 * const registry = benchRegistry({ root: await createWorkspace({ layout: workspaceLayout() }) });
 * @see generateBatches
 */
export function benchRegistry(options: { root: string }): ToolRegistry {
  const container = new Container();
  container.load(fsToolsModule({ root: options.root }));
  const registry = ToolRegistry.fromContainer(container).add(runCheckTool({ root: options.root }));
  const workspace = container.get(FS_WORKSPACE);
  for (const tool of remoteTools({ keyOf: (path) => workspace.keyOf(path).key }))
    registry.add(tool);
  return registry;
}
