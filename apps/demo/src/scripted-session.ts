import type { ToolCall } from '@toolwaves/core';

/** One scripted turn: what the model says and the calls it makes. */
export interface ScriptedTurn {
  readonly text: string;
  readonly calls: readonly Omit<ToolCall, 'id'>[];
}

const PRICE_FIX = {
  old_string: '  return Math.round(amount * (1 + TAX_RATE));',
  new_string: '  return Math.round(amount * (1 + TAX_RATE) * 100) / 100;',
};

const DISCOUNT_MODULE = `import { applyTax } from './price.js';

/** 5 off above 100, then tax. Replaces legacy/old-discount.ts. */
export function discounted(amount: number): number {
  return applyTax(amount > 100 ? amount - 5 : amount);
}
`;

/**
 * The embedded coding session: explore a small pricing library, fix a rounding TODO (two edits
 * to one file in one turn, a read after a write), add a module, retire a legacy file, check.
 * Turn 2 has the shape of the seed's worked example: Read(a) Read(b) <unsafe> Grep Read(a) Stat.
 * Every path is under `dir`, the folder the session created.
 */
export function scriptedSession(dir: string): ScriptedTurn[] {
  const p = (path: string) => (dir === '.' ? path : `${dir}/${path}`);
  return [
    {
      text: 'Let me look around the project first.',
      calls: [
        { name: 'list_dir', input: { path: p('.') } },
        { name: 'glob', input: { pattern: '**/*.ts', path: p('src') } },
        { name: 'grep', input: { pattern: 'TODO', path: p('.') } },
        { name: 'read_file', input: { path: p('README.md') } },
        { name: 'read_file', input: { path: p('src/price.ts') } },
        { name: 'read_file', input: { path: p('src/cart.ts') } },
      ],
    },
    {
      text: 'The worked example’s shape: Read(a) Read(b) <unsafe check> Grep Read(a) Stat. Two reads of one file share a wave (read/read never conflicts); the check runs alone.',
      calls: [
        { name: 'read_file', input: { path: p('src/price.ts') } },
        { name: 'read_file', input: { path: p('src/format.ts') } },
        { name: 'run_check', input: { path: p('.') } },
        { name: 'grep', input: { pattern: 'applyTax', path: p('src') } },
        { name: 'read_file', input: { path: p('src/price.ts') } },
        { name: 'stat', input: { path: p('package.json') } },
      ],
    },
    {
      text: 'Fixing the rounding and adding a discount module.',
      calls: [
        { name: 'edit_file', input: { path: p('src/price.ts'), ...PRICE_FIX } },
        {
          name: 'edit_file',
          input: {
            path: p('src/price.ts'),
            old_string: '// TODO: round to cents, not to whole units\n',
            new_string: '/** Adds tax, rounded to cents. */\n',
          },
        },
        { name: 'write_file', input: { path: p('src/discount.ts'), content: DISCOUNT_MODULE } },
        { name: 'read_file', input: { path: p('src/discount.ts') } },
        { name: 'read_file', input: { path: p('src/price.ts') } },
        {
          name: 'edit_file',
          input: {
            path: p('src/index.ts'),
            old_string: "export { cartTotal } from './cart.js';\n",
            new_string:
              "export { cartTotal } from './cart.js';\nexport { discounted } from './discount.js';\n",
          },
        },
      ],
    },
    {
      text: 'Retiring the legacy discount file and updating the notes.',
      calls: [
        {
          name: 'move_file',
          input: { from: p('src/legacy/old-discount.ts'), to: p('docs/old-discount.ts.txt') },
        },
        {
          name: 'edit_file',
          input: {
            path: p('docs/notes.md'),
            old_string: '- TODO: document the discount rules once they move out of `legacy/`.',
            new_string:
              '- Discounts live in `src/discount.ts`; the legacy rules are archived in this folder.',
          },
        },
        { name: 'list_dir', input: { path: p('src/legacy') } },
        { name: 'stat', input: { path: p('src/discount.ts') } },
      ],
    },
    {
      text: 'A final check over the project.',
      calls: [
        { name: 'run_check', input: { path: p('.') } },
        { name: 'grep', input: { pattern: 'TODO', path: p('.') } },
        { name: 'glob', input: { pattern: '**/*', path: p('.') } },
      ],
    },
  ];
}
