import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileContent, type WorkspaceLayout } from '../workloads/workspace-layout.js';

/** Options of {@link createWorkspace}. */
export interface CreateWorkspaceOptions {
  readonly layout: WorkspaceLayout;
  /**
   * Folder to create the workspace in. Default: `/dev/shm` when it exists and is writable (a
   * memory-backed folder: the tools' `fsync` costs nothing, so disk noise stays out of the
   * wall-clock figures), else the OS temp folder.
   */
  readonly parent?: string;
}

/**
 * Writes a fresh workspace of the layout into a new temporary folder and returns its path.
 * The caller removes it (`rm(root, { recursive: true, force: true })`).
 *
 * @example
 * const root = await createWorkspace({ layout: workspaceLayout() });
 * @see workspaceLayout
 */
export async function createWorkspace(options: CreateWorkspaceOptions): Promise<string> {
  const parent = options.parent ?? defaultParent();
  const root = await mkdtemp(join(parent, 'toolwaves-bench-'));
  const { layout } = options;
  const files = [...layout.sourceFiles, ...layout.docs, ...layout.scratchFiles];
  const folders = new Set(files.map((file) => dirname(join(root, file))));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all(files.map((file) => writeFile(join(root, file), fileContent(file))));
  return root;
}

function defaultParent(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}
