import { parseArguments } from './command-options.js';
import { findReads } from './find-expression.js';
import { gitCall } from './git-read-commands.js';
import { PROGRAM_SPECS } from './program-specs.js';
import type { ShellWord } from './shell-words.js';

/**
 * What one simple command of a known read-only program reads, or why it is not read-only:
 * `files` as written (relative to where it runs), `readsCwd` when it reads that directory,
 * `repository` when it reads the git repository (then `directories` are its `-C` moves).
 */
export type CommandReads =
  | {
      readonly files: readonly ShellWord[];
      readonly readsCwd: boolean;
      readonly repository: boolean;
      readonly directories: readonly ShellWord[];
    }
  | { readonly reason: string };

/**
 * The read-only programs the shell classifier knows, and what one call of one reads: `git`
 * (read-only subcommands), `find` (an expression allowlist), and the programs of
 * `PROGRAM_SPECS`, each with the exact options it accepts. A word may be given as a string
 * (then a `*`, `?` or `[` in it counts as a pattern the shell expands). An unknown program is
 * `undefined`; an option not on its list, or any other doubt, is a reason.
 *
 * @example
 * readOnlyCommand('grep', ['-rn', 'TODO', 'src']); // { files: [src], readsCwd: false, ... }
 * readOnlyCommand('sed', ['-i', 's/a/b/', 'f']);  // { reason: 'sed -i is not an option it allows' }
 * readOnlyCommand('rm', ['-rf', 'x']);            // undefined
 * @see classifyCommand
 */
export function readOnlyCommand(
  name: string,
  args: readonly (ShellWord | string)[],
): CommandReads | undefined {
  const words = args.map((arg) =>
    typeof arg === 'string' ? { text: arg, glob: /[*?[]/.test(arg), assignment: false } : arg,
  );
  const none = { files: [], readsCwd: false, repository: false, directories: [] };
  if (name === 'git') {
    const found = gitCall(words);
    if ('reason' in found) return { reason: found.reason };
    return { ...none, repository: true, directories: found.directories };
  }
  if (name === 'find') {
    const found = findReads(words);
    if ('reason' in found) return { reason: found.reason };
    return { ...none, files: found.files, readsCwd: found.readsCwd };
  }
  const spec = Object.hasOwn(PROGRAM_SPECS, name) ? PROGRAM_SPECS[name] : undefined;
  if (spec === undefined) return undefined;
  const parsed = parseArguments({ name, spec, args: words });
  if ('reason' in parsed) return { reason: parsed.reason };
  return { ...none, files: parsed.files, readsCwd: parsed.readsCwd };
}
