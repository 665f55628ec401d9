/** One word of a simple command after quote removal, as `/bin/sh` would pass it. */
export interface ShellWord {
  /** The word's text with its quotes removed. */
  readonly text: string;
  /** Holds an unquoted `*`, `?` or `[`: the shell may replace it with the paths it matches. */
  readonly glob: boolean;
  /** Holds an unquoted `=` before any quote (a possible `NAME=value` assignment). */
  readonly assignment: boolean;
}

/** One simple command of a list: its words and where its standard input comes from. */
export interface ShellCommand {
  readonly words: readonly ShellWord[];
  /** The files it reads through `< file`. */
  readonly inputs: readonly ShellWord[];
  /** Its standard input is the previous command's output (`a | b`). */
  readonly afterPipe: boolean;
  /** The operator after it (`undefined` for the last command). */
  readonly next: '&&' | '||' | ';' | '|' | undefined;
}

/** What {@link parseShellWords} found: the simple commands in order, or why it gave up. */
export type ShellParse =
  | { readonly commands: readonly ShellCommand[] }
  | { readonly reason: string };

/** Characters a word may hold unquoted: none of them means anything else to `/bin/sh`. */
const PLAIN = /[A-Za-z0-9_./,:=+@%^-]/;
const GLOB = /[*?[]/;
const SPACE = /[ \t]/;

/**
 * Splits a command line into simple commands the way `/bin/sh` (dash, POSIX) reads it, for the
 * small subset where the two readings cannot differ, and gives up on anything else: a list of
 * pipelines joined by `|`, `&&`, `||` and `;`, of words that are plain, single-quoted,
 * double-quoted (without `$` or backquotes) or backslash-escaped; `< file`, and output only to
 * `/dev/null` (`>/dev/null`, `2>/dev/null`) or onto another stream (`2>&1`). It refuses
 * characters outside printable ASCII, space and tab (new lines included), `$` in any form
 * (`$VAR`, `$(…)`, `$'…'`), backquotes, `#` (a comment starts at a word's beginning only, and
 * tokenizers disagree on what a word's beginning is), `&` alone, `(`, `)`, `{`, `}`, `~`, heredocs,
 * and every other redirection. A word that gives up is a reason, never a guess.
 *
 * @example
 * parseShellWords("grep -n 'a b' src | head"); // two commands, the first with 4 words
 * parseShellWords('cat a.txt \\ # x; rm -rf src'); // { reason: 'an unquoted #' }
 */
export function parseShellWords(command: string): ShellParse {
  if (!/^[\x20-\x7e\t]*$/.test(command)) {
    return { reason: 'a character outside printable ASCII, space and tab (a new line included)' };
  }
  const commands: ShellCommand[] = [];
  let words: ShellWord[] = [];
  let inputs: ShellWord[] = [];
  let afterPipe = false;
  let pending: 'input' | 'null' | undefined;
  let i = 0;
  const endCommand = (next: ShellCommand['next']): string | undefined => {
    if (pending !== undefined) return 'a redirection without its file';
    if (words.length === 0) return 'an empty command between operators';
    commands.push({ words, inputs, afterPipe, next });
    words = [];
    inputs = [];
    afterPipe = next === '|';
    return undefined;
  };
  while (i < command.length) {
    const c = command[i]!;
    if (SPACE.test(c)) {
      i += 1;
      continue;
    }
    const two = command.slice(i, i + 2);
    if (c === '&' && two !== '&&') return { reason: 'a background job (&)' };
    if (two === '&&' || two === '||' || c === '|' || c === ';') {
      if (two === '|&' || two === ';;') return { reason: `the operator ${two}` };
      const op = two === '&&' || two === '||' ? two : (c as '|' | ';');
      const reason = endCommand(op);
      if (reason !== undefined) return { reason };
      i += op.length;
      continue;
    }
    if (c === '<' || c === '>') {
      const redirect = readRedirect(command, i, '');
      if ('reason' in redirect) return redirect;
      if (pending !== undefined) return { reason: 'a redirection without its file' };
      pending = redirect.pending;
      i = redirect.end;
      continue;
    }
    const word = readWord(command, i);
    if ('reason' in word) return word;
    i = word.end;
    if (/^[0-2]$/.test(command.slice(word.start, word.end)) && /[<>]/.test(command[i] ?? '')) {
      const redirect = readRedirect(command, i, command[word.start]!);
      if ('reason' in redirect) return redirect;
      if (pending !== undefined) return { reason: 'a redirection without its file' };
      pending = redirect.pending;
      i = redirect.end;
      continue;
    }
    if (/^[0-9]+$/.test(word.word.text) && /[<>]/.test(command[i] ?? '')) {
      return { reason: `a redirection of descriptor ${word.word.text}` };
    }
    if (pending === 'null') {
      if (word.word.text !== '/dev/null' || command.slice(word.start, word.end) !== '/dev/null') {
        return { reason: `redirects output to ${word.word.text} (only /dev/null is read-only)` };
      }
      pending = undefined;
    } else if (pending === 'input') {
      if (word.word.glob) return { reason: 'a pattern as the file of <' };
      inputs.push(word.word);
      pending = undefined;
    } else words.push(word.word);
  }
  if (command.trim() === '') return { reason: 'an empty command' };
  const last = commands.at(-1);
  // `ls;` ends with a `;`: dash runs `ls` and nothing after it.
  if (words.length === 0 && pending === undefined && last?.next === ';') {
    commands[commands.length - 1] = { ...last, next: undefined };
    return { commands };
  }
  const reason = endCommand(undefined);
  if (reason !== undefined) return { reason };
  return { commands };
}

/**
 * Reads `<`, `>`, `>>`, `>&N` from `i` (the descriptor `fd`, if any, already read): `pending`
 * says which file must follow; `>&0`..`>&2` needs none.
 */
function readRedirect(
  command: string,
  i: number,
  fd: string,
): { readonly end: number; readonly pending: 'input' | 'null' | undefined } | { reason: string } {
  // `>&N` ends its word: `>&1"x"` is one word to dash (a descriptor it cannot use).
  const op = /^(<|>>|>&[0-2](?=$|[ \t;|&<>])|>)/.exec(command.slice(i))?.[0];
  const next = command[i + (op?.length ?? 1)] ?? '';
  if (op === undefined || /[<>&|(]/.test(next)) {
    return { reason: `the redirection ${command.slice(i, i + 3).trim()}` };
  }
  if (op === '<') {
    if (fd !== '' && fd !== '0') return { reason: `the redirection ${fd}<` };
    return { end: i + 1, pending: 'input' };
  }
  if (fd === '0') return { reason: 'an output redirection of standard input' };
  if (op.startsWith('>&')) return { end: i + op.length, pending: undefined };
  return { end: i + op.length, pending: 'null' };
}

/** Reads one word from `start`: plain characters, quotes and escapes, up to a space or operator. */
function readWord(
  command: string,
  start: number,
): { readonly word: ShellWord; readonly start: number; readonly end: number } | { reason: string } {
  let text = '';
  let glob = false;
  let assignment = false;
  let quoted = false;
  let i = start;
  while (i < command.length) {
    const c = command[i]!;
    if (SPACE.test(c) || /[|&;<>]/.test(c)) break;
    if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return { reason: 'an unterminated single quote' };
      text += command.slice(i + 1, close);
      quoted = true;
      i = close + 1;
      continue;
    }
    if (c === '"') {
      const inner = readDoubleQuoted(command, i + 1);
      if ('reason' in inner) return inner;
      text += inner.text;
      quoted = true;
      i = inner.end;
      continue;
    }
    if (c === '\\') {
      const next = command[i + 1];
      if (next === undefined) return { reason: 'a backslash at the end' };
      if (next === '#') return { reason: 'an unquoted #' };
      text += next;
      quoted = true;
      i += 2;
      continue;
    }
    if (c === '$') return { reason: command[i + 1] === "'" ? "$'…' quoting" : 'a $ expansion' };
    if (c === '`') return { reason: 'backquotes run a command' };
    if (c === '#') return { reason: 'an unquoted #' };
    if (c === '~' && (i === start || /[=:]/.test(command[i - 1]!))) {
      return { reason: 'an unquoted ~ where the shell may expand it' };
    }
    if (c === '!' && (i > start || !/^!($|[ \t])/.test(command.slice(i)))) {
      return { reason: 'an unquoted ! inside a word' };
    }
    if (GLOB.test(c)) glob = true;
    else if (c === '=' && !quoted && !glob) assignment = true;
    else if (c !== ']' && c !== '!' && c !== '~' && !PLAIN.test(c)) {
      return { reason: `an unquoted ${c}` };
    }
    text += c;
    i += 1;
  }
  return { word: { text, glob, assignment }, start, end: i };
}

/** Reads a double-quoted string from just after its `"`; `$` and backquotes make it unsure. */
function readDoubleQuoted(
  command: string,
  start: number,
): { readonly text: string; readonly end: number } | { reason: string } {
  let text = '';
  for (let i = start; i < command.length; i++) {
    const c = command[i]!;
    if (c === '"') return { text, end: i + 1 };
    if (c === '$') return { reason: 'a $ expansion inside double quotes' };
    if (c === '`') return { reason: 'backquotes run a command' };
    if (c === '\\') {
      const next = command[i + 1];
      if (next === undefined) break;
      // POSIX: inside double quotes a backslash escapes only $ ` " \ (and a new line).
      text += /[$`"\\]/.test(next) ? next : `\\${next}`;
      i += 1;
      continue;
    }
    text += c;
  }
  return { reason: 'an unterminated double quote' };
}
