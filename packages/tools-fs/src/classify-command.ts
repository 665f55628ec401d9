import { posix } from 'node:path';
import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { invalidOptions } from './fs-tools-error.js';
import { checkRepository } from './git-repository.js';
import { readOnlyCommand } from './read-only-commands.js';
import { isDirectory, shellPath, shellPattern } from './shell-paths.js';
import { parseShellWords, type ShellCommand, type ShellWord } from './shell-words.js';

/**
 * What a shell command touches, as far as {@link classifyCommand} can tell: read-only
 * (concurrency-safe) with the paths it reads, or not and why.
 */
export type CommandClassification =
  | { readonly concurrencySafe: true; readonly reads: readonly string[] }
  | { readonly concurrencySafe: false; readonly reason: string };

/** Options of {@link classifyCommand}. */
export interface ClassifyCommandOptions {
  /**
   * The real path of the workspace root the command runs in. With it, every path is resolved as
   * the kernel will (symbolic links included) and must stay inside the root, patterns and git
   * repositories are checked on disk, and `reads` are real absolute paths. Without it (a
   * transcript replayed elsewhere), `reads` are the paths as written, relative to where the
   * command starts, and nothing is checked on disk.
   */
  readonly root?: string;
}

/** Prefixes `NAME=value` that change no file, no program and no path read (values checked). */
const HARMLESS_ENV: Readonly<Record<string, RegExp>> = {
  LANG: /^[A-Za-z0-9_.@-]*$/,
  LC_ALL: /^[A-Za-z0-9_.@-]*$/,
  LC_COLLATE: /^[A-Za-z0-9_.@-]*$/,
  LC_CTYPE: /^[A-Za-z0-9_.@-]*$/,
  LC_MESSAGES: /^[A-Za-z0-9_.@-]*$/,
  NO_COLOR: /^[A-Za-z0-9]*$/,
  FORCE_COLOR: /^[0-9]*$/,
  CLICOLOR: /^[0-9]*$/,
  COLUMNS: /^[0-9]*$/,
  TERM: /^(dumb|xterm|xterm-256color)$/,
  PAGER: /^cat$/,
  GIT_PAGER: /^cat$/,
  CI: /^[A-Za-z0-9]*$/,
};

/**
 * Classifies a shell command for the scheduler. It is read-only only when every part of it is
 * on an allowlist: the shell syntax (`parseShellWords`: plain words, quotes, `|`, `&&`, `||`,
 * `;`, `< file`, output to `/dev/null`), each program and each of its options
 * (`readOnlyCommand`), harmless `NAME=value` prefixes, and `cd DIR` when the rest of the
 * command surely runs there (followed by `&&` or nothing, outside pipes, with no `||` in the
 * command). Everything else is unsafe, with the reason. It reads the files its programs name
 * (and `file` options such as `grep -f`), the directory for programs that read it when given
 * none (`ls`, `find`, `rg`, `grep -r`), and the whole workspace for git (`.` without a root).
 *
 * @example
 * classifyCommand('cd src && grep -rn TODO . | head -20'); // { concurrencySafe: true, reads: ['src'] }
 * classifyCommand('sed --in s/x/y/ a.txt');              // unsafe: `sed --in` is not an option it allows
 * classifyCommand('cat a.txt', { root: '/w' });           // { concurrencySafe: true, reads: ['/w/a.txt'] }
 * @see readOnlyCommand for the programs and options it knows.
 */
export function classifyCommand(
  command: string,
  options: ClassifyCommandOptions = {},
): CommandClassification {
  checkOptions({
    subject: 'classifyCommand',
    options,
    rules: { root: optionRules.nonEmptyString },
    error: invalidOptions,
  });
  const unsafe = (reason: string): CommandClassification => ({ concurrencySafe: false, reason });
  if (typeof command !== 'string' || command.trim() === '') return unsafe('an empty command');
  const parsed = parseShellWords(command);
  if ('reason' in parsed) return unsafe(parsed.reason);
  const reads = new Set<string>();
  const { root } = options;
  let cwd = root ?? '.';
  for (let c = 0; c < parsed.commands.length; c++) {
    const current = parsed.commands[c]!;
    const found = simpleCommand({
      command: current,
      cwd,
      root,
      inPipe: current.afterPipe || parsed.commands[c + 1]?.afterPipe === true,
    });
    if ('reason' in found) return unsafe(found.reason);
    if (found.cd !== undefined) {
      if (current.next !== '&&' && current.next !== undefined) {
        return unsafe('a cd whose failure would leave the rest in another directory');
      }
      if (parsed.commands.some((other) => other.next === '||')) {
        return unsafe('a cd in a command with ||');
      }
      cwd = found.cd;
    }
    for (const path of found.reads) reads.add(path);
  }
  return { concurrencySafe: true, reads: [...reads] };
}

type Found =
  | { readonly cd?: string; readonly reads: readonly string[] }
  | { readonly reason: string };

/** One simple command: its `NAME=value` prefixes, then `cd`, `git`, or a read-only program. */
function simpleCommand(options: {
  readonly command: ShellCommand;
  readonly cwd: string;
  readonly root: string | undefined;
  readonly inPipe: boolean;
}): Found {
  const { command, cwd, root } = options;
  // `! cmd` only inverts the exit status.
  let first = command.words[0]?.text === '!' ? 1 : 0;
  for (; first < command.words.length && command.words[first]!.assignment; first++) {
    const [name, value] = splitAssignment(command.words[first]!.text);
    const allowed = Object.hasOwn(HARMLESS_ENV, name) ? HARMLESS_ENV[name] : undefined;
    if (allowed === undefined || !allowed.test(value)) return { reason: `sets ${name}` };
  }
  const [nameWord, ...args] = command.words.slice(first);
  // What a pattern expands to starts with its first character: never let it be an option.
  const optionLike = command.words.find((word) => word.glob && /^[-*?[]/.test(word.text));
  if (optionLike !== undefined) {
    return { reason: `${optionLike.text} may expand to names that read as options` };
  }
  if (nameWord === undefined) return { reason: 'an assignment without a command' };
  const name = nameWord.text;
  if (nameWord.glob || !/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(name)) {
    return { reason: `\`${name}\` is not a program name it knows` };
  }
  const resolve = (word: ShellWord, at: string): Found => resolveWord({ word, cwd: at, root });
  const inputs = command.inputs.map((word) => resolve(word, cwd));
  if (name === 'cd') {
    if (options.inPipe) return { reason: 'a cd inside a pipe (it runs in a subshell)' };
    if (args.length !== 1 || args[0]!.glob || args[0]!.text.startsWith('-')) {
      return { reason: 'a cd the classifier cannot follow' };
    }
    const target = resolve(args[0]!, cwd);
    if ('reason' in target) return target;
    const dir = target.reads[0]!;
    if (root !== undefined && !isDirectory(dir))
      return { reason: `cd to ${args[0]!.text}, not a folder` };
    return { cd: dir, reads: [] };
  }
  const found = readOnlyCommand(name, args);
  if (found === undefined) return { reason: `\`${name}\` is not a known read-only command` };
  if ('reason' in found) return { reason: found.reason };
  let at = cwd;
  for (const directory of found.directories) {
    const moved = resolve(directory, at);
    if ('reason' in moved) return moved;
    at = moved.reads[0]!;
    if (root !== undefined && !isDirectory(at))
      return { reason: `git -C ${directory.text}: not a folder` };
  }
  const reads: string[] = [];
  for (const result of [...inputs, ...found.files.map((word) => resolve(word, at))]) {
    if ('reason' in result) return result;
    reads.push(...result.reads);
  }
  if (found.readsCwd) reads.push(at);
  if (found.repository) {
    if (root === undefined) reads.push('.', at);
    else {
      const reason = checkRepository({ root, cwd: at });
      if (reason !== undefined) return { reason };
      reads.push(root);
    }
  }
  return { reads };
}

/** A file word's reads: resolved as the kernel will with a root, joined as written without. */
function resolveWord(options: {
  readonly word: ShellWord;
  readonly cwd: string;
  readonly root: string | undefined;
}): Found {
  const { word, cwd, root } = options;
  if (root === undefined) {
    const path = word.glob ? staticPart(word.text) : word.text;
    if (word.glob && /[*?[]/.test(path))
      return { reason: `${word.text}: a pattern in a folder's name` };
    return { reads: [joinPath(cwd, path)] };
  }
  const found = word.glob
    ? shellPattern({ root, cwd, pattern: word.text })
    : shellPath({ root, cwd, path: word.text });
  return 'reason' in found ? found : { reads: found.paths };
}

function splitAssignment(text: string): [string, string] {
  const equals = text.indexOf('=');
  return [text.slice(0, equals), text.slice(equals + 1)];
}

/** `path` seen from `cwd` (absolute paths stay absolute), normalized, no trailing `/`. */
function joinPath(cwd: string, path: string): string {
  const joined = path.startsWith('/') ? posix.normalize(path) : posix.join(cwd, path);
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/** The folder a pattern reads: the part of the path before the last `/` ( `.` when none). */
function staticPart(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash) || '/';
}
