import { describe, expect, it } from 'vitest';
import { formatTable } from '../src/format-table.js';
import { terminalStyle } from '../src/terminal-style.js';

describe('formatTable', () => {
  it('pads columns and aligns numbers right', () => {
    expect(
      formatTable({
        header: ['planner', 'waves'],
        rows: [
          ['greedy', '7'],
          ['sequential', '24'],
        ],
        alignRight: [1],
      }),
    ).toBe(
      ['planner     waves', '----------  -----', 'greedy          7', 'sequential     24'].join(
        '\n',
      ),
    );
  });
});

describe('terminalStyle', () => {
  it('colours a TTY, not a pipe, and honours NO_COLOR and FORCE_COLOR', () => {
    expect(terminalStyle({ stream: { isTTY: true }, env: {} }).green('ok')).toBe(
      '\u001b[32mok\u001b[39m',
    );
    expect(terminalStyle({ stream: { isTTY: false }, env: {} }).green('ok')).toBe('ok');
    expect(terminalStyle({ stream: { isTTY: true }, env: { NO_COLOR: '1' } }).green('ok')).toBe(
      'ok',
    );
    expect(terminalStyle({ stream: {}, env: { FORCE_COLOR: '1' } }).red('x')).toBe(
      '\u001b[31mx\u001b[39m',
    );
  });
});
