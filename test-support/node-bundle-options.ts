import { fileURLToPath } from 'node:url';

/** Options of {@link nodeBundleOptions}. */
export interface NodeBundleOptionsInput {
  /** The TypeScript entry point. */
  readonly entry: string;
  /** The tsconfig the sources compile with (decorators, the workspace's sources by path). */
  readonly tsconfig: string;
  /**
   * `esm` (the default): an ES module, run with `node bundle.mjs`. `cjs`: a CommonJS script for
   * `run-with-code-cache.cjs` ({@link bundleCommand}), which keeps V8's compiled code of it
   * between starts; it has no top-level `await`, and `import.meta.url` is the bundle's own URL.
   */
  readonly format?: 'esm' | 'cjs';
}

/**
 * esbuild's options for one file that a test's child process runs under plain `node`: the entry
 * and everything it imports bundled, for Node 20, whitespace and syntax minified; an ES module
 * with a `require` for the CommonJS dependencies that esbuild's ESM output calls, or a CommonJS
 * script (`format: 'cjs'`). The callers add what is their own (plugins, externals) and hand the
 * result to `cachedBundle`.
 */
export function nodeBundleOptions(input: NodeBundleOptionsInput) {
  const common = {
    entryPoints: [input.entry],
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    tsconfig: input.tsconfig,
    logLevel: 'error' as const,
    // Whitespace and syntax only, not names: a child loads a third less source on every start
    // (the crash tests start dozens), and a stack trace from it still names the functions.
    minifyWhitespace: true,
    minifySyntax: true,
  };
  if (input.format === 'cjs') {
    return {
      ...common,
      format: 'cjs' as const,
      // what the workspace's sources read beside themselves (the Lua scripts) is found beside
      // the bundle, as from the ES module
      banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
      define: { 'import.meta.url': 'importMetaUrl' },
    };
  }
  return {
    ...common,
    format: 'esm' as const,
    banner: {
      js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);",
    },
  };
}

/** Runs a CommonJS bundle with V8's code cache kept beside it (see the script). */
const CODE_CACHE_RUNNER = fileURLToPath(new URL('./run-with-code-cache.cjs', import.meta.url));

/** What {@link bundleCommand} runs. */
export interface BundleCommandInput {
  /** A bundle `cachedBundle` made: `.mjs`, or `.cjs` (`format: 'cjs'`). */
  readonly bundle: string;
  readonly args: readonly string[];
}

/**
 * The command line that runs `bundle` with `args` under this node: an ES module directly, a
 * CommonJS bundle through `run-with-code-cache.cjs`, which compiles it from V8's code cache kept
 * beside it after its first start (the argv the bundle sees is the same either way).
 */
export function bundleCommand(input: BundleCommandInput): string[] {
  const runner = input.bundle.endsWith('.cjs') ? [CODE_CACHE_RUNNER] : [];
  return [process.execPath, ...runner, input.bundle, ...input.args];
}
