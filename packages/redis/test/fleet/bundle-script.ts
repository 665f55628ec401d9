import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync } from 'esbuild';
import { cachedBundle } from '../../../../test-support/cached-bundle.js';
import { nodeBundleOptions } from '../../../../test-support/node-bundle-options.js';

/** The package's tsconfig for scripts (decorators, the workspace's sources by path). */
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.cli.json', import.meta.url));
// Inside the package's node_modules: the bundles' own dependencies resolve from there.
const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/fleet-tests/', import.meta.url));
/** The coordinator's Lua scripts, read at run time from `scripts/` beside the module that loads them. */
const LUA_SCRIPTS = fileURLToPath(new URL('../../src/scripts/', import.meta.url));

/**
 * The TypeScript script at `path` bundled into one ES module: a child process loads it in a tenth
 * of the CPU time tsx takes to load and compile the workspace's sources (rxjs, zod, inversify,
 * the packages), and the fleet tests start a child per agent. Built once and kept while its
 * sources are unchanged (`cachedBundle`).
 */
export function bundleScript(path: string): string {
  const options: BuildOptions = nodeBundleOptions({ entry: path, tsconfig: TSCONFIG });
  return cachedBundle({
    name: basename(path, '.ts'),
    outDir: OUT_DIR,
    options,
    build: buildSync,
    // `lua-script.ts` (in src/, as the bundle is in its folder) reads `./scripts/` relative to
    // itself: in a bundle, relative to the bundle.
    assets: { scripts: LUA_SCRIPTS },
  });
}
