export { type DraftFile, draftFile } from './atomic-write.js';
export { canonicalPath } from './canonical-path.js';
export {
  type ClassifyCommandOptions,
  type CommandClassification,
  classifyCommand,
} from './classify-command.js';
export { runCommandEnvironment } from './command-environment.js';
export { probeSandbox, type SandboxProbe } from './command-sandbox.js';
export { compileGlob, type GlobMatcher } from './compile-glob.js';
export { type DeleteFileInput, DeleteFileTool, deleteFileInput } from './delete-file-tool.js';
export { type EditFileInput, EditFileTool, editFileInput } from './edit-file-tool.js';
export { FS_HOST_FENCE } from './fs-host-fence-token.js';
export { fsKey } from './fs-key.js';
export { FS_READ_CACHE } from './fs-read-cache-token.js';
export { FS_TOOLS, type FsToolClass } from './fs-tools.js';
export { FsToolsError, type FsToolsErrorCode } from './fs-tools-error.js';
export { type FsToolsModuleOptions, fsToolsModule } from './fs-tools-module.js';
export {
  type FsToolsOptions,
  type FsToolsSettings,
  parseFsToolsOptions,
} from './fs-tools-options.js';
export { FS_WORKSPACE } from './fs-workspace-token.js';
export { type GlobInput, GlobTool, globInput } from './glob-tool.js';
export { type GrepInput, GrepTool, grepInput } from './grep-tool.js';
export {
  DEFAULT_MAX_COMMIT_WAIT_MS,
  type FencedWrite,
  HostFence,
  type HostFenceOptions,
} from './host-fence.js';
export { type ListDirInput, ListDirTool, listDirInput } from './list-dir-tool.js';
export { type MoveFileInput, MoveFileTool, moveFileInput } from './move-file-tool.js';
export { type FsAccess, type PathUse, pathAccess } from './path-access.js';
export {
  type CachedRead,
  ReadCache,
  type ReadCacheOptions,
  type ReadCacheStats,
} from './read-cache.js';
export { type ReadFileInput, ReadFileTool, readFileInput } from './read-file-tool.js';
export { type CommandReads, readOnlyCommand } from './read-only-commands.js';
export {
  FS_RUN_COMMAND,
  type RunCommandOptions,
  type RunCommandSettings,
} from './run-command-options.js';
export {
  RUN_COMMAND_DEFAULT_TIMEOUT_MS,
  RUN_COMMAND_MAX_TIMEOUT_MS,
  type RunCommandInput,
  RunCommandTool,
  runCommandInput,
} from './run-command-tool.js';
export { RUN_COMMAND_MAX_OUTPUT_CHARS } from './run-shell.js';
export { type StatInput, StatTool, statInput } from './stat-tool.js';
export { type PathKey, type ResolvedPath, Workspace } from './workspace.js';
export { type WriteFileInput, WriteFileTool, writeFileInput } from './write-file-tool.js';
