import type { ShellWord } from './shell-words.js';

/** What a `find` expression word takes after it: nothing, text, or a file it reads. */
const PRIMARIES: Readonly<Record<string, 'flag' | 'value' | 'file'>> = {
  ...Object.fromEntries(
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -maxdepth -mindepth -mtime -mmin -atime -amin -ctime -cmin -size -perm -user -group -uid -gid -links -printf -regextype -used'
      .split(' ')
      .map((name) => [name, 'value' as const]),
  ),
  ...Object.fromEntries(
    '-newer -anewer -cnewer -samefile'.split(' ').map((name) => [name, 'file' as const]),
  ),
  ...Object.fromEntries(
    '-print -print0 -prune -not -o -or -a -and ( ) ! , -empty -ls -readable -writable -executable -depth -xdev -mount -true -false -quit -nouser -nogroup -noleaf -daystart'
      .split(' ')
      .map((name) => [name, 'flag' as const]),
  ),
};

/** What one `find` call reads: its start paths and the files its tests name. */
export type FindReads =
  | { readonly files: readonly ShellWord[]; readonly readsCwd: boolean }
  | { readonly reason: string };

/**
 * Reads `find [paths] [expression]` against an allowlist of expression words: tests and actions
 * that only read and print. `-exec`, `-execdir`, `-ok`, `-okdir`, `-delete`, `-fprint*`, `-fls`
 * are not listed, nor `-L`, `-H` and `-follow` (they follow symbolic links out of the tree), nor
 * `-D`/`-O`. A start path comes before the first word that starts with `-`, `(`, `!` or `,`.
 */
export function findReads(args: readonly ShellWord[]): FindReads {
  const files: ShellWord[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.text;
    if (text.startsWith('-') || text === '(' || text === '!' || text === ',' || text === ')') break;
    files.push(args[i]!);
  }
  const readsCwd = files.length === 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.glob) return { reason: `find: a pattern the shell expands (${word.text}); quote it` };
    const kind = Object.hasOwn(PRIMARIES, word.text) ? PRIMARIES[word.text] : undefined;
    if (kind === undefined) return { reason: `find ${word.text} is not an expression it allows` };
    if (kind === 'flag') continue;
    const value = args[++i];
    if (value === undefined) return { reason: `find ${word.text} without its value` };
    if (value.glob)
      return { reason: `find: a pattern the shell expands (${value.text}); quote it` };
    if (kind === 'file') files.push(value);
  }
  return { files, readsCwd };
}
