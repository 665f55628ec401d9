import { posix } from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { readOnlyCommand } from './read-only-commands.js';

/**
 * What a shell command touches, as far as {@link classifyCommand} can tell: concurrency-safe
 * with the paths it reads (relative to the directory it starts in, `/`-separated, or absolute),
 * or not concurrency-safe and why.
 */
export type CommandClassification =
  | { readonly concurrencySafe: true; readonly reads: readonly string[] }
  | { readonly concurrencySafe: false; readonly reason: string };

/** A `$NAME` or `$(…)` the parser met (`name` '' for `$(`): the command depends on what it expands to. */
interface Expansion {
  readonly expansion: string;
}

/** Environment prefixes (`NAME=value cmd`) that change no file and no program's choice. */
const HARMLESS_ENV =
  /^(LANG|LC_[A-Z]+|TERM|NO_COLOR|FORCE_COLOR|CLICOLOR|COLUMNS|PAGER|GIT_PAGER|TZ|CI)$/;

/** Redirections that write nothing: to /dev/null, or one stream onto another (`2>&1`). */
const HARMLESS_REDIRECT =
  /(^|[\s;|&])(\d*|&)>>?\s*\/dev\/null(?=$|[\s;|&])|(^|[\s;|&])\d*>&\d(?=$|[\s;|&])/g;

const SEPARATORS = new Set(['&&', '||', ';', '|', '|&']);

/**
 * Classifies a shell command for the scheduler, by parsing it with `shell-quote` (a maintained,
 * dependency-free shell tokenizer). A list of pipelines (`|`, `&&`, `||`, `;`, new lines) of
 * known read-only programs ({@link readOnlyCommand}: `ls`, `cat`, `grep`, `rg`, `find` without
 * `-exec`/`-delete`, `git status|log|diff|show`, …), with `cd DIR` steps, harmless environment
 * prefixes (`LC_ALL=C`), `< file` and redirections to `/dev/null` only, is concurrency-safe and
 * reads the paths it names (the directory, when a program names none; `git` reads the directory
 * it starts in). Anything else, and anything the classifier is unsure of, is not: `$(…)`,
 * backquotes, `$VAR`, `eval`, unknown programs, output redirections, heredocs, subshells,
 * background jobs, `~`, `sed -i`, `find -exec`, `python3 -c`.
 *
 * @example
 * classifyCommand('cd src && grep -rn TODO . | head -20'); // { concurrencySafe: true, reads: ['src'] }
 * classifyCommand('ls > list.txt');                       // { concurrencySafe: false, reason: 'redirects output (>)' }
 * @see readOnlyCommand for the programs it knows.
 */
export function classifyCommand(command: string): CommandClassification {
  const unsafe = (reason: string): CommandClassification => ({ concurrencySafe: false, reason });
  if (typeof command !== 'string' || command.trim() === '') return unsafe('an empty command');
  if (command.includes('`')) return unsafe('backquotes run a command');
  if (command.includes('\0')) return unsafe('a NUL byte');
  const text = command.replace(HARMLESS_REDIRECT, '$1$3').replace(/\r?\n|\r/g, ' ; ');
  let tokens: ReturnType<typeof parseShell<Expansion>>;
  try {
    tokens = parseShell<Expansion>(text, (name): Expansion => ({ expansion: name }));
  } catch (error) {
    return unsafe(`the parser failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const reads = new Set<string>();
  let cwd = '.';
  let words: string[] = [];
  let afterPipe = false;
  const endCommand = (): string | undefined => {
    if (words.length === 0) return undefined;
    const found = simpleCommand({ words, cwd, afterPipe });
    words = [];
    if ('reason' in found) return found.reason;
    cwd = found.cwd;
    for (const path of found.reads) reads.add(path);
    return undefined;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (typeof token === 'string') {
      words.push(token);
      continue;
    }
    if ('expansion' in token) {
      return unsafe(token.expansion === '' ? '$(…) runs a command' : `expands $${token.expansion}`);
    }
    if ('comment' in token) {
      if (/[\r\n]/.test(command)) return unsafe('a comment across lines');
      // The tokenizer also cuts `file#1` at the `#`, which a shell does not.
      if (/[^\s]#/.test(command)) return unsafe('a # inside a word');
      continue;
    }
    if (token.op === 'glob') {
      words.push(token.pattern);
      continue;
    }
    if (token.op === '<') {
      const source = tokens[++i];
      if (typeof source !== 'string') return unsafe('an input redirection the parser is unsure of');
      reads.add(joinPath(cwd, source));
      continue;
    }
    if (!SEPARATORS.has(token.op)) {
      return unsafe(
        token.op.startsWith('<<')
          ? `a heredoc (${token.op})`
          : `${token.op.includes('>') ? 'redirects output' : 'an operator it does not follow'} (${token.op})`,
      );
    }
    const reason = endCommand();
    if (reason !== undefined) return unsafe(reason);
    afterPipe = token.op === '|' || token.op === '|&';
  }
  const reason = endCommand();
  if (reason !== undefined) return unsafe(reason);
  return { concurrencySafe: true, reads: [...reads] };
}

/** One simple command: its environment prefixes, `cd`, or a known read-only program. */
function simpleCommand(options: {
  readonly words: readonly string[];
  readonly cwd: string;
  readonly afterPipe: boolean;
}): { readonly cwd: string; readonly reads: readonly string[] } | { readonly reason: string } {
  const { cwd } = options;
  let first = 0;
  for (; first < options.words.length; first++) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(options.words[first]!);
    if (assignment === null) break;
    if (!HARMLESS_ENV.test(assignment[1]!)) return { reason: `sets ${assignment[1]}` };
  }
  const [name, ...args] = options.words.slice(first);
  if (name === undefined) return { cwd, reads: [] };
  if ([name, ...args].some((word) => word.startsWith('~'))) return { reason: 'a path under ~' };
  if (name === 'cd') {
    const target = args.filter((arg) => arg !== '-P' && arg !== '-L');
    if (target.length !== 1 || target[0] === '-' || hasGlob(target[0]!)) {
      return { reason: 'a cd the classifier cannot follow' };
    }
    return { cwd: joinPath(cwd, target[0]!), reads: [] };
  }
  const found = readOnlyCommand(name, args);
  if (found === undefined) return { reason: `\`${name}\` is not a known read-only command` };
  if (found.unsafe !== undefined) return { reason: found.unsafe };
  const base = name === 'git' ? '.' : cwd;
  // A stage fed by a pipe that names no file reads the pipe, not the directory.
  const paths =
    options.afterPipe && found.paths.length === 1 && found.paths[0] === '.' ? [] : found.paths;
  return { cwd, reads: paths.map((path) => joinPath(base, staticPart(path))) };
}

/** `path` seen from `cwd` (absolute paths stay absolute), normalized, no trailing `/`. */
function joinPath(cwd: string, path: string): string {
  const joined = path.startsWith('/') ? posix.normalize(path) : posix.join(cwd, path);
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

function hasGlob(path: string): boolean {
  return /[*?[\]{}]/.test(path);
}

/** The part of a path before any glob or brace: the directory a pattern reads. */
function staticPart(path: string): string {
  if (!hasGlob(path)) return path;
  const prefix = path.slice(0, path.search(/[*?[\]{}]/));
  const slash = prefix.lastIndexOf('/');
  return slash < 0 ? '.' : prefix.slice(0, slash + 1) || '/';
}
