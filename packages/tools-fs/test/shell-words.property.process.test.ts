import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseShellWords, type ShellCommand } from '../src/shell-words.js';

/** Pieces of command lines, ordinary and hostile: quotes, escapes, comments, odd spaces, operators. */
const PIECES = [
  'a',
  'b-c',
  '-x',
  '--y=z',
  'x=1',
  "'q t'",
  '"d q"',
  '"\\$"',
  '"\\\\"',
  '"a\\b"',
  "'a\"b'",
  '"a\'b"',
  '\\ ',
  '\\a',
  "\\'",
  '\\"',
  '\\\\',
  '#',
  'a#b',
  '$x',
  "$'x'",
  '`x`',
  '$(x)',
  '*',
  'a?',
  '[a]',
  '~',
  'a~b',
  '=',
  '!',
  ';',
  ';;',
  '&&',
  '||',
  '|',
  '|&',
  '&',
  '&>',
  '>&2',
  '2>/dev/null',
  '>/dev/null',
  '2>&1',
  '1>&2',
  '(',
  ')',
  '{',
  '}',
  ' ',
  '\t',
  '\u00a0',
  '\u000b',
  '\u000c',
  '\n',
  '\r',
  'é',
];
const OPERATORS = [' ; ', ' && ', ' || ', ' | ', ';', '&&', '|'];

// An empty folder to run in (patterns match nothing, so dash keeps them as written), the log beside it.
const dir = mkdtempSync(join(tmpdir(), 'toolwaves-dash-'));
const cwd = join(dir, 'empty');
mkdirSync(cwd);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The words dash passes to each command that runs, one line per command, in order. */
function dashWords(line: string): string[] {
  const log = join(dir, 'log');
  writeFileSync(log, '');
  // `p` prints its arguments to the log, its line in one write: the commands of a pipeline run at
  // once, and a line written piece by piece could be cut by another command's line (seen:
  // `p | p * x` logged `[*]`, then the first `p`'s empty line, then `[x]`). The command line
  // calls only `p`.
  const script = `p() { s=; for a in "$@"; do s="$s[$a]"; done; printf '%s\\n' "$s" >> "${log}"; }\n${line}`;
  spawnSync('/bin/sh', ['-c', script], { cwd, stdio: 'ignore', timeout: 5000 });
  return readFileSync(log, 'utf8').split('\n').slice(0, -1);
}

/** What the parse says dash prints: every command whose pipeline does not follow a `||` (`p` succeeds). */
function parsedWords(commands: readonly ShellCommand[]): string[] {
  const lines: string[] = [];
  let skip = false;
  let previous: ShellCommand | undefined;
  for (const command of commands) {
    if (!command.afterPipe) skip = previous?.next === '||';
    if (!skip)
      lines.push(
        command.words
          .slice(1)
          .map((word) => `[${word.text}]`)
          .join(''),
      );
    previous = command;
  }
  return lines;
}

describe('parseShellWords against dash', () => {
  it('whatever it accepts, dash runs with exactly the words it found', () => {
    const word = fc
      .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 })
      .map((p) => p.join(''));
    const command = fc.array(word, { maxLength: 4 }).map((words) => ['p', ...words].join(' '));
    const line = fc
      .array(fc.tuple(command, fc.constantFrom(...OPERATORS)), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.map(([c, op], i) => (i === parts.length - 1 ? c : c + op)).join(''))
      .chain((text) => fc.constantFrom(text, `${text};`, `${text} ; `, `${text}&&`));
    let accepted = 0;
    fc.assert(
      fc.property(line, (text) => {
        const parsed = parseShellWords(text);
        if ('reason' in parsed) return;
        if (parsed.commands.some((c) => c.words[0]?.text !== 'p' || c.inputs.length > 0)) return;
        accepted += 1;
        // Pipelines run their commands at once: compare as sorted lists.
        expect(dashWords(text).sort(), text).toEqual(parsedWords(parsed.commands).sort());
      }),
      { numRuns: 600, seed: 26 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
