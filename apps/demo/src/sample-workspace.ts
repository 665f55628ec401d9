import { cp, mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DemoError } from './demo-error.js';

/** The sample project the scripted session works on, shipped with the demo. */
export const SAMPLE_WORKSPACE = fileURLToPath(new URL('../sample-workspace', import.meta.url));

/** Where a session runs: the sandbox root, and the folder (relative to it) the session created. */
export interface SessionWorkspace {
  readonly root: string;
  readonly dir: string;
}

/**
 * Lays out a fresh copy of the sample project. Without `workspace`, in a new temp folder (the
 * folder is the root). With `workspace`, in a new `toolwaves-demo-*` folder inside it, so the
 * session only ever writes files it created.
 *
 * @throws DemoError `invalid_workspace` when `workspace` is not an existing folder.
 */
export async function prepareWorkspace(options: {
  workspace?: string | undefined;
}): Promise<SessionWorkspace> {
  if (options.workspace === undefined) {
    const root = await mkdtemp(join(tmpdir(), 'toolwaves-demo-'));
    await cp(SAMPLE_WORKSPACE, root, { recursive: true });
    return { root, dir: '.' };
  }
  const root = resolve(options.workspace);
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new DemoError({
      code: 'invalid_workspace',
      message: `Expected \`--workspace\` to be an existing folder, got \`${options.workspace}\``,
    });
  }
  const session = await mkdtemp(join(root, 'toolwaves-demo-'));
  await cp(SAMPLE_WORKSPACE, session, { recursive: true });
  return { root, dir: session.slice(root.length + 1) };
}
