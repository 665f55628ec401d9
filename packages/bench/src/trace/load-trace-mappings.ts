import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { BenchError, invalidOptions } from '../bench-error.js';
import type { TraceMappings } from './trace-declarations.js';

/**
 * Loads a `--map` module: its default export (or its `mappings` export) maps tool names to a
 * declaration `{ concurrencySafe, access?, kind? }` or a function of the call's input and a
 * context (`{ cwd, keyOf(path) }`) that returns one.
 *
 * @throws {BenchError} `invalid_map` naming the module when it does not load or exports no
 * object, or naming the tool whose mapping is neither a function nor a declaration.
 * @example const mappings = await loadTraceMappings({ path: 'my-tools.map.ts' });
 * @throws {BenchError} `invalid_options` for an unknown or wrong option, naming it and its value.
 */
export async function loadTraceMappings(options: {
  readonly path: string;
  readonly cwd?: string;
}): Promise<TraceMappings> {
  checkOptions({
    subject: 'loadTraceMappings',
    options,
    rules: { path: optionRules.nonEmptyString, cwd: optionRules.nonEmptyString },
    required: ['path'],
    error: invalidOptions,
  });
  const url = pathToFileURL(resolve(options.cwd ?? process.cwd(), options.path)).href;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new BenchError({
      code: 'invalid_map',
      message: `Could not load the --map module \`${options.path}\`: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  const mappings = loaded.default ?? loaded.mappings;
  if (typeof mappings !== 'object' || mappings === null || Array.isArray(mappings)) {
    throw new BenchError({
      code: 'invalid_map',
      message: `Expected the --map module \`${options.path}\` to export (default) an object of tool names, got ${typeof mappings}`,
    });
  }
  for (const [name, mapping] of Object.entries(mappings)) {
    const declaration = mapping as { concurrencySafe?: unknown } | null;
    if (typeof mapping !== 'function' && typeof declaration?.concurrencySafe !== 'boolean') {
      throw new BenchError({
        code: 'invalid_map',
        message: `Expected the mapping of \`${name}\` in \`${options.path}\` to be a function or \`{ concurrencySafe: boolean, access?, kind? }\`, got ${JSON.stringify(mapping)}`,
      });
    }
  }
  return mappings as TraceMappings;
}
