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
 * dependencies that esbuild's ESM output calls. The callers add what is their own (plugins) and
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
  };
}
