/**
 * What one simple command of a known read-only program reads (paths as written, relative to
 * the command's directory), or why it may write or run something else.
 */
export type CommandReads =
  | { readonly paths: readonly string[]; readonly unsafe?: undefined }
  | { readonly unsafe: string };

/** How the arguments of one read-only program are read. */
interface CommandSpec {
  /** Options that take values (how many: 1 unless said), e.g. `-n 5`, `--max-count 3`. */
  readonly valued?: Readonly<Record<string, number>>;
  /** Leading operands that are not paths (a pattern, a script), unless one of `patternOptions` is given. */
  readonly leading?: number;
  readonly patternOptions?: readonly string[];
  /** Options that make it write or run something (short letters match inside a cluster). */
  readonly unsafeOptions?: readonly string[];
  /** More operands than this and it writes (`uniq in out`). */
  readonly maxOperands?: number;
  /** Reads no file at all (its operands are text). */
  readonly noPaths?: boolean;
  /** A further check of the non-path operands and option values: a reason when unsafe. */
  readonly check?: (texts: readonly string[]) => string | undefined;
}

const NO_PATHS: CommandSpec = { noPaths: true };
const HEAD_TAIL: CommandSpec = { valued: { '-n': 1, '-c': 1, '--lines': 1, '--bytes': 1 } };
const GREP: CommandSpec = {
  leading: 1,
  patternOptions: ['-e', '-f', '--regexp', '--file'],
  valued: {
    '-e': 1,
    '-f': 1,
    '-A': 1,
    '-B': 1,
    '-C': 1,
    '-m': 1,
    '-d': 1,
    '-D': 1,
    '--regexp': 1,
    '--file': 1,
    '--max-count': 1,
    '--include': 1,
    '--exclude': 1,
    '--exclude-dir': 1,
    '--label': 1,
    '--context': 1,
  },
};

/** A `sed` script that only prints, deletes or substitutes (no `w`, `e`, `r` commands or flags). */
function sedScriptIsSafe(script: string): boolean {
  const address = String.raw`(?:\d+|\$|/[^/]*/)?(?:,(?:\d+|\$|/[^/]*/|\+\d+))?`;
  const print = new RegExp(String.raw`^\s*${address}\s*!?\s*[pdq=]?\s*$`);
  const substitute = new RegExp(
    String.raw`^\s*${address}\s*s(.)(?:(?!\1).)*\1(?:(?!\1).)*\1[gpiI0-9]*\s*$`,
  );
  return script.split(';').every((command) => print.test(command) || substitute.test(command));
}

const SPECS: Readonly<Record<string, CommandSpec>> = {
  cat: {},
  tac: {},
  nl: {},
  od: {},
  hexdump: {},
  strings: {},
  file: {},
  wc: {},
  cmp: {},
  comm: {},
  diff: { valued: { '-U': 1, '--label': 1 } },
  md5sum: {},
  sha1sum: {},
  sha256sum: {},
  realpath: {},
  readlink: {},
  du: { valued: { '-d': 1 } },
  df: {},
  head: HEAD_TAIL,
  tail: HEAD_TAIL,
  ls: { valued: { '-I': 1, '-w': 1, '--ignore': 1 } },
  stat: { valued: { '-c': 1, '--format': 1, '--printf': 1 } },
  tree: { valued: { '-L': 1, '-P': 1, '-I': 1 }, unsafeOptions: ['-o'] },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    leading: 1,
    patternOptions: ['-e', '-f', '--regexp', '--file', '--files'],
    valued: {
      ...GREP.valued,
      '-g': 1,
      '--glob': 1,
      '-t': 1,
      '--type': 1,
      '-T': 1,
      '--type-not': 1,
      '-M': 1,
      '--max-columns': 1,
      '-j': 1,
      '--threads': 1,
      '--max-depth': 1,
    },
    unsafeOptions: ['--pre'],
  },
  sort: {
    valued: { '-k': 1, '-t': 1, '-S': 1, '--key': 1 },
    unsafeOptions: ['-o', '--output', '--compress-program'],
  },
  uniq: { valued: { '-f': 1, '-s': 1, '-w': 1 }, maxOperands: 1 },
  cut: { valued: { '-d': 1, '-f': 1, '-c': 1, '-b': 1 } },
  column: { valued: { '-s': 1 } },
  jq: {
    leading: 1,
    valued: { '--arg': 2, '--argjson': 2, '--indent': 1 },
    unsafeOptions: ['--slurpfile', '--rawfile'],
  },
  tr: NO_PATHS,
  echo: NO_PATHS,
  printf: NO_PATHS,
  pwd: NO_PATHS,
  true: NO_PATHS,
  false: NO_PATHS,
  whoami: NO_PATHS,
  uname: NO_PATHS,
  basename: NO_PATHS,
  dirname: NO_PATHS,
  which: NO_PATHS,
  seq: NO_PATHS,
  sleep: NO_PATHS,
  date: { noPaths: true, unsafeOptions: ['-s', '--set'] },
  sed: {
    leading: 1,
    patternOptions: ['-e', '--expression'],
    valued: { '-e': 1, '--expression': 1, '-l': 1 },
    unsafeOptions: ['-i', '--in-place', '-f', '--file'],
    check: (texts) =>
      texts.find((script) => !sedScriptIsSafe(script)) === undefined
        ? undefined
        : 'a sed script that may write a file or run a command',
  },
  awk: {
    leading: 1,
    valued: { '-F': 1, '-v': 1 },
    unsafeOptions: ['-f'],
    check: (texts) =>
      texts.some((text) => /[>|]|system|getline|close|fflush/.test(text))
        ? 'an awk program that may write, pipe or run a command'
        : undefined,
  },
};

/** `find` expressions that run a command or write a file. */
const FIND_UNSAFE = [
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
];

/** `git` subcommands that only read (with the exceptions checked below). */
const GIT_READS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'blame',
  'grep',
  'shortlog',
  'describe',
  'cat-file',
  'rev-list',
  'merge-base',
  'show-ref',
  'for-each-ref',
  'branch',
  'remote',
  'tag',
  'reflog',
  'config',
]);

/**
 * The read-only programs the shell classifier knows, and what each call of one reads: its path
 * operands (the pattern of `grep`, the script of `sed` and so on are not paths), `[]` for
 * programs that read no file (`echo`, `tr`), `['.']` for one that names no path (it reads the
 * directory), or why the call is not read-only after all (`find -exec`, `sed -i`, `sort -o`,
 * `git branch -D`). An unknown program is `undefined`.
 *
 * @example
 * readOnlyCommand('grep', ['-rn', 'TODO', 'src']); // { paths: ['src'] }
 * readOnlyCommand('sed', ['-i', 's/a/b/', 'f']);  // { unsafe: 'sed -i may write, run something or …' }
 * readOnlyCommand('rm', ['-rf', 'x']);            // undefined
 * @see classifyCommand
 */
export function readOnlyCommand(name: string, args: readonly string[]): CommandReads | undefined {
  if (name === 'find') return findReads(args);
  if (name === 'git') return gitReads(args);
  const spec = Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
  if (spec === undefined) return undefined;
  const operands: string[] = [];
  const texts: string[] = [];
  let patternGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(arg);
      continue;
    }
    const [option, attached] = splitOption(arg);
    const letters = option.startsWith('--') ? [option] : [...option.slice(1)].map((c) => `-${c}`);
    for (let l = 0; l < letters.length; l++) {
      const letter = letters[l]!;
      if (spec.unsafeOptions?.some((unsafe) => letter === unsafe)) {
        return {
          unsafe: `${name} ${letter} may write, run something or read what it does not name`,
        };
      }
      if (spec.patternOptions?.includes(letter)) patternGiven = true;
      const count = spec.valued?.[letter] ?? 0;
      if (count === 0) continue;
      // A short option's value may be glued on (`-n5`); a long one's after `=`.
      const rest = option.startsWith('--') ? attached : option.slice(l + 2) || attached;
      if (rest !== undefined) texts.push(rest);
      else {
        texts.push(...args.slice(i + 1, i + 1 + count));
        i += count;
      }
      break;
    }
  }
  const leading = patternGiven ? 0 : (spec.leading ?? 0);
  texts.push(...operands.slice(0, leading));
  const paths = operands.slice(leading);
  const reason = spec.check?.(texts);
  if (reason !== undefined) return { unsafe: reason };
  if (spec.maxOperands !== undefined && paths.length > spec.maxOperands) {
    return { unsafe: `${name} with ${paths.length} operands writes the last one` };
  }
  if (spec.noPaths === true) return { paths: [] };
  return {
    paths:
      paths.filter((path) => path !== '-').length === 0
        ? ['.']
        : paths.filter((path) => path !== '-'),
  };
}

function splitOption(arg: string): [string, string | undefined] {
  const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
  return equals < 0 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

function findReads(args: readonly string[]): CommandReads {
  const unsafe = args.find((arg) => FIND_UNSAFE.includes(arg));
  if (unsafe !== undefined) return { unsafe: `find ${unsafe} runs a command or writes a file` };
  const first = args.findIndex((arg) => arg.startsWith('-') || arg === '(' || arg === '!');
  const paths = first < 0 ? [...args] : args.slice(0, first);
  return { paths: paths.length === 0 ? ['.'] : paths };
}

function gitReads(args: readonly string[]): CommandReads {
  let i = 0;
  // Global options: `--no-pager`, `-C DIR`; any other (`-c key=value` can run programs) is unsure.
  while (i < args.length && args[i]!.startsWith('-')) {
    if (args[i] === '--no-pager') i += 1;
    else if (args[i] === '-C' && i + 1 < args.length) i += 2;
    else return { unsafe: `git ${args[i]} is not a read-only option` };
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined || !GIT_READS.has(sub))
    return { unsafe: `git ${sub ?? ''} may write`.trim() };
  if (rest.some((arg) => arg.startsWith('--output') || arg === '--ext-diff')) {
    return { unsafe: `git ${sub} --output writes a file` };
  }
  const listing: Record<string, (arg: string) => boolean> = {
    branch: (arg) => /^(-a|-r|-v|-vv|--list|--all|--remotes|--show-current|--no-color)$/.test(arg),
    remote: (arg) => arg === '-v' || arg === '--verbose',
    tag: (arg) => arg === '-l' || arg === '--list',
    reflog: (arg) => arg === 'show' || !/^(expire|delete|drop|exists)$/.test(arg),
    config: (arg) =>
      /^(--get|--get-all|--get-regexp|--list|-l|--show-origin|--global|--local)$/.test(arg) ||
      !arg.startsWith('-'),
  };
  const allowed = listing[sub];
  if (allowed !== undefined && !rest.every(allowed))
    return { unsafe: `git ${sub} ${rest.join(' ')} may write` };
  if (
    sub === 'config' &&
    !rest.some((arg) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(arg))
  ) {
    return { unsafe: 'git config without --get or --list may write' };
  }
  // git reads the whole working tree and the repository: the directory it starts in.
  return { paths: ['.'] };
}
