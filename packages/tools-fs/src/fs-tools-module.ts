import { bindTools } from '@toolwaves/core';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { ContainerModule } from 'inversify';
import { FS_HOST_FENCE } from './fs-host-fence-token.js';
import { FS_READ_CACHE } from './fs-read-cache-token.js';
import { FS_TOOLS, type FsToolClass } from './fs-tools.js';
import { invalidOptions } from './fs-tools-error.js';
import {
  FS_TOOLS_OPTION_RULES,
  FS_TOOLS_OPTIONS_EXPECTED,
  type FsToolsOptions,
  fsToolsSettings,
} from './fs-tools-options.js';
import { FS_WORKSPACE } from './fs-workspace-token.js';
import { HostFence } from './host-fence.js';
import { ReadCache } from './read-cache.js';
import {
  FS_RUN_COMMAND,
  RUN_COMMAND_OPTION_RULES,
  type RunCommandOptions,
  runCommandSettings,
} from './run-command-options.js';
import { RunCommandTool } from './run-command-tool.js';
import { Workspace } from './workspace.js';

/** Options of {@link fsToolsModule}: the workspace and its limits, and which tools to bind. */
export interface FsToolsModuleOptions extends FsToolsOptions {
  /** The tool classes to bind. Default {@link FS_TOOLS}, all nine. */
  readonly tools?: readonly FsToolClass[];
  /**
   * Also bind `run_command` ({@link RunCommandTool}): shell commands in the workspace root,
   * read-only ones in a read-only sandbox (`{ sandbox: 'workspace-write' }` confines the
   * others to the root too). Default `false`.
   */
  readonly runCommand?: boolean | RunCommandOptions;
}

/** `tools`: the tool classes to bind, each a class (a function). */
const TOOLS = optionRules.arrayOf('an array of tool classes', {
  ...optionRules.function,
  expected: 'a tool class',
});

/**
 * An inversify `ContainerModule` with the sandboxed filesystem tools: `read_file`, `write_file`,
 * `edit_file`, `list_dir`, `glob`, `grep`, `stat`, `move_file` and `delete_file`, and `run_command` with `runCommand: true` (bound as tools,
 * so `ToolRegistry.fromContainer` finds them), the {@link Workspace} under its class and
 * {@link FS_WORKSPACE}, the {@link ReadCache} under {@link FS_READ_CACHE}, and the workspace's
 * {@link HostFence} (the host-shared commit step of the write tools) under {@link FS_HOST_FENCE}. The options are checked now, not when
 * the module is loaded.
 *
 * @throws FsToolsError `invalid_root` when `root` is not an existing directory,
 * `invalid_options` for an unknown option (with a "did you mean" for a near miss: `rootDir`
 * → `root`) or a wrong limit or flag (the message names the field and the value).
 * @example
 * ```ts
 * const container = new Container();
 * container.load(fsToolsModule({ root: process.cwd(), cachedReads: true }));
 * const registry = ToolRegistry.fromContainer(container);
 * const results = await new Dispatcher({ registry, mode: 'parallel' }).dispatch(calls);
 * ```
 * @see FS_TOOLS to bind a subset.
 */
export function fsToolsModule(options: FsToolsModuleOptions): ContainerModule {
  checkOptions({
    subject: 'fsToolsModule',
    options,
    expected: FS_TOOLS_OPTIONS_EXPECTED,
    rules: { ...FS_TOOLS_OPTION_RULES, tools: TOOLS, ...RUN_COMMAND_OPTION_RULES },
    error: invalidOptions,
  });
  const settings = fsToolsSettings(options);
  const workspace = new Workspace(settings);
  const cache = new ReadCache({
    enabled: settings.cachedReads,
    maxEntries: settings.maxCacheEntries,
  });
  const runCommand = runCommandSettings(options.runCommand);
  const tools = [...(options.tools ?? FS_TOOLS), ...(runCommand ? [RunCommandTool] : [])];
  const fence = HostFence.forUser({
    tempDir: settings.fenceTempDir,
    maxWaitMs: settings.maxCommitWaitMs,
  });
  return new ContainerModule(({ bind }) => {
    bind(Workspace).toConstantValue(workspace);
    bind(FS_WORKSPACE).toConstantValue(workspace);
    bind(FS_READ_CACHE).toConstantValue(cache);
    bind(FS_HOST_FENCE).toConstantValue(fence);
    if (runCommand !== undefined) bind(FS_RUN_COMMAND).toConstantValue(runCommand);
    bindTools({ bind }, tools);
  });
}
