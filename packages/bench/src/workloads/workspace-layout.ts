import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The files of a generated workspace, as paths relative to its root (`/`-separated). */
export interface WorkspaceLayout {
  /** Source folders, e.g. `src/core`. */
  readonly modules: readonly string[];
  /** TypeScript sources, `src/<module>/file<i>.ts`, each with {@link EDIT_MARKERS} edit markers. */
  readonly sourceFiles: readonly string[];
  /** Markdown files under `docs/`. */
  readonly docs: readonly string[];
  /** Throw-away files under `tmp/`, targets of moves and deletes. */
  readonly scratchFiles: readonly string[];
}

/** How many distinct `edit_file` edits each source file supports ({@link editMarker}). */
export const EDIT_MARKERS = 48;

const MODULE_NAMES = ['core', 'api', 'ui', 'db', 'auth', 'cli', 'jobs', 'util'];

/** The paths of a workspace: 8 folders of 8 sources, 4 docs and 64 scratch files. */
export function workspaceLayout(): WorkspaceLayout {
  const modules = MODULE_NAMES.map((name) => `src/${name}`);
  const sourceFiles = modules.flatMap((module) =>
    Array.from({ length: 8 }, (_, f) => `${module}/file${f}.ts`),
  );
  const docs = ['docs/guide.md', 'docs/api.md', 'docs/design.md', 'README.md'];
  const scratchFiles = Array.from({ length: 64 }, (_, s) => `tmp/scratch${s}.txt`);
  return { modules, sourceFiles, docs, scratchFiles };
}

/** The layout's source files under any of these folders, in layout order. */
export function sourcesIn(layout: WorkspaceLayout, ...modules: readonly string[]): string[] {
  return layout.sourceFiles.filter((path) =>
    modules.some((module) => path.startsWith(`${module}/`)),
  );
}

/** The `k`-th edit a source file supports: `old_string` occurs once in a fresh file. */
export function editMarker(k: number): { old_string: string; new_string: string } {
  return { old_string: `const value${k} = ${k};`, new_string: `const value${k} = ${k} + 1;` };
}

/** The text of a fresh file of the layout, by its path. */
export function fileContent(path: string): string {
  if (path.endsWith('.ts')) return sourceFileContent(path);
  if (path.endsWith('.md')) return `# ${path}\n\nTODO: document the module.\n`;
  return `scratch ${path}\n`;
}

/** A source file: imports, exported functions, a TODO and the {@link editMarker} lines. */
function sourceFileContent(path: string): string {
  const lines = [`// ${path}`, "import { shared } from '../util/file0.js';", ''];
  for (let f = 0; f < 4; f++)
    lines.push(`export function fn${f}() {`, `  return shared(${f});`, '}');
  lines.push('// TODO: split this module', '');
  for (let k = 0; k < EDIT_MARKERS; k++) lines.push(editMarker(k).old_string);
  return `${lines.join('\n')}\n`;
}

/** Writes a fresh workspace to a new temporary folder (`/dev/shm` when writable). */
export async function createWorkspace(options: { layout: WorkspaceLayout }): Promise<string> {
  const base = await access('/dev/shm', constants.W_OK).then(() => '/dev/shm', tmpdir);
  const root = await mkdtemp(join(base, 'toolwaves-bench-'));
  const { layout } = options;
  const files = [...layout.sourceFiles, ...layout.docs, ...layout.scratchFiles];
  const folders = new Set(files.map((file) => dirname(join(root, file))));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all(files.map((file) => writeFile(join(root, file), fileContent(file))));
  return root;
}
