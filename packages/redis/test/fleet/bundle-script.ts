import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, buildSync } from 'esbuild';
import { cachedBundle } from '../../../../test-support/cached-bundle.js';
import { bundleCommand, nodeBundleOptions } from '../../../../test-support/node-bundle-options.js';

/** The package's tsconfig for scripts (decorators, the workspace's sources by path). */
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.cli.json', import.meta.url));
// Inside the package's node_modules: the bundles' own dependencies resolve from there.
const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/fleet-tests/', import.meta.url));
/** The coordinator's Lua scripts, read at run time from `scripts/` beside the module that loads them. */
const LUA_SCRIPTS = fileURLToPath(new URL('../../src/scripts/', import.meta.url));

/** Options of {@link bundleScript}. */
export interface BundleScriptOptions {
  /** An ES module (the default), or a CommonJS script for {@link codeCachedCommand}. */
  readonly format?: 'esm' | 'cjs';
}

/**
 * The TypeScript script at `path` bundled into one file: a child process loads it in a tenth of
 * the CPU time tsx takes to load and compile the workspace's sources (rxjs, zod, inversify, the
 * packages), and the fleet tests start a child per agent. Built once and kept while its sources
 * are unchanged (`cachedBundle`).
 */
export function bundleScript(path: string, options: BundleScriptOptions = {}): string {
  const bundleOptions: BuildOptions = nodeBundleOptions({
    entry: path,
    tsconfig: TSCONFIG,
    format: options.format ?? 'esm',
  });
  return cachedBundle({
    name: basename(path, '.ts'),
    outDir: OUT_DIR,
    options: bundleOptions,
    build: buildSync,
    // `lua-script.ts` (in src/, as the bundle is in its folder) reads `./scripts/` relative to
    // itself: in a bundle, relative to the bundle.
    assets: { scripts: LUA_SCRIPTS },
  });
}

/** What {@link codeCachedCommand} runs. */
export interface CodeCachedCommandInput {
  /** The TypeScript script (no top-level `await`: it is bundled as CommonJS). */
  readonly path: string;
  readonly args: readonly string[];
}

/**
 * The command line that runs the script at `path` with `args` from its CommonJS bundle, compiled
 * from V8's code cache kept beside it after the first start (`run-with-code-cache.cjs`): the
 * fleet tests start an agent process per agent, dozens a run.
 */
export function codeCachedCommand(input: CodeCachedCommandInput): string[] {
  return bundleCommand({ bundle: bundleScript(input.path, { format: 'cjs' }), args: input.args });
}
