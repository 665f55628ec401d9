import { DeleteFileTool } from './delete-file-tool.js';
import { EditFileTool } from './edit-file-tool.js';
import { GlobTool } from './glob-tool.js';
import { GrepTool } from './grep-tool.js';
import { ListDirTool } from './list-dir-tool.js';
import { MoveFileTool } from './move-file-tool.js';
import { ReadFileTool } from './read-file-tool.js';
import { StatTool } from './stat-tool.js';
import { WriteFileTool } from './write-file-tool.js';

/** A filesystem tool class, as `fsToolsModule`'s `tools` option takes it. */
export type FsToolClass = (typeof FS_TOOLS)[number];

/**
 * Every filesystem tool class, in a stable order. Pass a subset as `fsToolsModule`'s `tools` to
 * bind only some (e.g. the read-only ones).
 *
 * @example
 * ```ts
 * const readOnly = [ReadFileTool, ListDirTool, GlobTool, GrepTool, StatTool];
 * container.load(fsToolsModule({ root: '/work', tools: readOnly }));
 * ```
 * @see fsToolsModule
 */
export const FS_TOOLS = [
  ReadFileTool,
  WriteFileTool,
  EditFileTool,
  ListDirTool,
  GlobTool,
  GrepTool,
  StatTool,
  MoveFileTool,
  DeleteFileTool,
] as const;
