import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** The package's tsconfig for scripts (decorators, the workspace's sources by path). */
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.cli.json', import.meta.url));
// Inside the package's node_modules: the bundles' own dependencies resolve from there.
const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/fleet-tests/', import.meta.url));
/** The coordinator's Lua scripts, read at run time from `scripts/` beside the module that loads them. */
const LUA_SCRIPTS = fileURLToPath(new URL('../../src/scripts/', import.meta.url));

const bundles = new Map<string, string>();

/**
 * The TypeScript script at `path` bundled into one ES module, once per worker: a child process
 * loads it in a tenth of the CPU time tsx takes to load and compile the workspace's sources
 * (rxjs, zod, inversify, the packages), and the fleet tests start a child per agent.
 */
export function bundleScript(path: string): string {
  const known = bundles.get(path);
  if (known !== undefined) return known;
  mkdirSync(OUT_DIR, { recursive: true });
  // A folder per bundle: test files run side by side in worker threads.
  const outfile = `${mkdtempSync(`${OUT_DIR}bundle-`)}/${basename(path, '.ts')}.mjs`;
  buildSync({
    entryPoints: [path],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: TSCONFIG,
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  // `lua-script.ts` (in src/, as the bundle is in its folder) reads `./scripts/` relative to
  // itself: in a bundle, relative to the bundle.
  cpSync(LUA_SCRIPTS, join(dirname(outfile), 'scripts'), { recursive: true });
  bundles.set(path, outfile);
  return outfile;
}
