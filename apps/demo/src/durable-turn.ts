import type { ToolCall } from '@toolwaves/core';

/** The ids of the calls of {@link durableTurn} the demo's crashes are timed on. */
export const CRASH_POINTS = {
  /** First crash: while this slow read-only search runs (it may run again)... */
  whileRunning: 'd2',
  /** ...once this edit has finished (its result is journaled). */
  afterFinished: 'd3',
  /** Second crash: while this check runs (it declares nothing: it may not run twice). */
  whileChecking: 'd6',
} as const;

const DISCOUNT_MODULE = `import { applyTax } from './price.js';

/** 5 off above 100, then tax. */
export function discounted(amount: number): number {
  return applyTax(amount > 100 ? amount - 5 : amount);
}
`;

/**
 * The one turn `pnpm demo --durable` runs on Restate: read, search the notes (nothing else in the
 * turn writes there, so the search runs beside the edits), fix the rounding TODO, add a module,
 * read them back, check the project, look around. Paths under `dir` (the folder
 * the session created, `.` for a whole temporary workspace).
 */
export function durableTurn(dir: string): ToolCall[] {
  const p = (path: string) => (dir === '.' ? path : `${dir}/${path}`);
  return [
    { id: 'd1', name: 'read_file', input: { path: p('src/price.ts') } },
    { id: 'd2', name: 'grep', input: { pattern: 'TODO', path: p('docs') } },
    {
      id: 'd3',
      name: 'edit_file',
      input: {
        path: p('src/price.ts'),
        old_string: '  return Math.round(amount * (1 + TAX_RATE));',
        new_string: '  return Math.round(amount * (1 + TAX_RATE) * 100) / 100;',
      },
    },
    {
      id: 'd4',
      name: 'write_file',
      input: { path: p('src/discount.ts'), content: DISCOUNT_MODULE },
    },
    { id: 'd5', name: 'read_file', input: { path: p('src/price.ts') } },
    { id: 'd6', name: 'run_check', input: { path: p('.') } },
    { id: 'd7', name: 'read_file', input: { path: p('src/discount.ts') } },
    { id: 'd8', name: 'stat', input: { path: p('package.json') } },
  ];
}
