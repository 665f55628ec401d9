/** Options of {@link nodeBundleOptions}. */
export interface NodeBundleOptionsInput {
  /** The TypeScript entry point. */
  readonly entry: string;
  /** The tsconfig the sources compile with (decorators, the workspace's sources by path). */
  readonly tsconfig: string;
}

/**
 * esbuild's options for one ES module that a test's child process runs under plain `node`: the
 * entry and everything it imports bundled, for Node 20, with a `require` for the CommonJS
 * dependencies that esbuild's ESM output calls, whitespace and syntax minified. The callers add what is their own (plugins) and
 * hand the result to `cachedBundle`.
 */
export function nodeBundleOptions(input: NodeBundleOptionsInput) {
  return {
    entryPoints: [input.entry],
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: 'node20',
    tsconfig: input.tsconfig,
    banner: {
      js: "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);",
    },
    logLevel: 'error' as const,
    // Whitespace and syntax only, not names: a child loads a third less source on every start
    // (the crash tests start dozens), and a stack trace from it still names the functions.
    minifyWhitespace: true,
    minifySyntax: true,
  };
}
