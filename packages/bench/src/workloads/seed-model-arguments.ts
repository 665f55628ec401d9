/**
 * The arguments a real call of each abstract seed-model tool would carry, for the token model
 * of streamed turns: seed-model nodes have no `ToolCall`, but the model still writes one.
 *
 * @see arrivalTimes
 */
export const SEED_MODEL_ARGUMENTS: Readonly<Record<string, unknown>> = {
  Read: { path: 'src/core/file0.ts' },
  Edit: {
    path: 'src/core/file0.ts',
    old_string: 'const value0 = 0;',
    new_string: 'const value0 = 0 + 1;',
  },
  Grep: { pattern: 'TODO', path: 'src' },
  Stat: { path: 'src/core/file0.ts' },
  Shell: { command: 'pnpm test src/core' },
};
