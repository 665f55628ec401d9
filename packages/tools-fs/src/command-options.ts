import type { ShellWord } from './shell-words.js';

/**
 * What an option of a read-only program takes: nothing (`flag`), one value that is only text
 * (`value`), one value naming a file it reads (`file`: a declared read), or one value that is
 * the program's script or pattern (`script`: then no leading operand is the script), a file
 * holding the script (`scriptFile`: both), two text values (`pair`: `jq --arg name value`), or
 * a value only after `=` (`optional`: a long option `--porcelain` or `--porcelain=v2`).
 */
export type OptionKind = 'flag' | 'optional' | 'value' | 'pair' | 'file' | 'script' | 'scriptFile';

/**
 * Option table entries: `optionsOf('flag', '-a -b --all')` is `{ '-a': 'flag', '-b': 'flag',
 * '--all': 'flag' }`.
 */
export function optionsOf(kind: OptionKind, names: string): Record<string, OptionKind> {
  return Object.fromEntries(names.split(' ').map((name) => [name, kind]));
}

/** How one read-only program's arguments are read: an allowlist of exact options. */
export interface ProgramSpec {
  /** Every option it accepts, spelled exactly (`-n`, `--line-number`); any other is unsafe. */
  readonly options: Readonly<Record<string, OptionKind>>;
  /** `-20` means a count (`head -20`, `git log -5`). */
  readonly numericShort?: boolean;
  /** Leading operands that are text (a pattern, a script), unless a `script` option was given. */
  readonly leading?: number;
  /** What its other operands are: files it reads, or text. */
  readonly operands: 'files' | 'text';
  /** More operands than this and it writes (`uniq in out`) or does what we do not know. */
  readonly maxOperands?: number;
  /** What it reads when given no file: the directory it runs in, or its standard input. */
  readonly withoutFiles: 'cwd' | 'stdin';
  /** Options after which it reads the directory when given no file (`grep -r`). */
  readonly recursive?: readonly string[];
  /** A short option that takes a value stands alone (`-L 2`), never clustered or glued. */
  readonly valuesAlone?: boolean;
  /** Options end at the first operand (not GNU's permutation): later words are operands. */
  readonly optionsFirst?: boolean;
  /** An operand `NAME=value` is an assignment, not a file (`awk` reads it so, quoted or not). */
  readonly assignments?: boolean;
  /** Flags after which no leading operand is a script (`rg --files`). */
  readonly scriptless?: readonly string[];
  /** A further check: a reason when unsafe. */
  readonly check?: (found: {
    /** The script or pattern operands and option values of kind `script`. */
    readonly scripts: readonly string[];
    /** The text operands after them (`date +%s`, `echo`'s words). */
    readonly operands: readonly string[];
    /** The options given. */
    readonly options: ReadonlySet<string>;
  }) => string | undefined;
}

/** One call's arguments read by its {@link ProgramSpec}. */
export interface ParsedArguments {
  /** Patterns, scripts and option values that are text. */
  readonly texts: readonly string[];
  /** The files it reads, as written (operands and `file` option values). */
  readonly files: readonly ShellWord[];
  /** Whether it reads the directory it runs in (no file given, and a recursive option or spec). */
  readonly readsCwd: boolean;
  /** The options given, each once. */
  readonly options: ReadonlySet<string>;
}

/**
 * Reads a program's arguments the way GNU `getopt_long` does, but accepting only what `spec`
 * lists: short options alone or clustered (`-rn`), a short option's value glued on (`-n5`) or
 * next; long options exactly (no abbreviation), their value after `=` or next; `--` ends the
 * options; options may follow operands unless `optionsFirst`. Anything it does not know, and a
 * pattern (`*`, `?`, `[`) anywhere but in a file operand, gives the reason it is unsafe.
 */
export function parseArguments(options: {
  readonly name: string;
  readonly spec: ProgramSpec;
  readonly args: readonly ShellWord[];
}): ParsedArguments | { readonly reason: string } {
  const { name, spec, args } = options;
  const texts: string[] = [];
  const files: ShellWord[] = [];
  const operands: ShellWord[] = [];
  const given = new Set<string>();
  const scripts: string[] = [];
  const textOperands: string[] = [];
  let scriptGiven = false;
  let optionsEnded = false;
  const take = (kind: OptionKind, value: ShellWord): string | undefined => {
    if (value.glob) return `${name}: a pattern the shell expands as an option's value`;
    if (kind === 'file' || kind === 'scriptFile') files.push(value);
    else texts.push(value.text);
    if (kind === 'script') scripts.push(value.text);
    if (kind === 'script' || kind === 'scriptFile') scriptGiven = true;
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const arg = word.text;
    if (optionsEnded || arg === '-' || !arg.startsWith('-')) {
      if (word.glob && arg.startsWith('-'))
        return { reason: `${name}: a pattern that starts with -` };
      // Another implementation of the program may still read it as an option.
      if (spec.optionsFirst === true && operands.length > 0 && /^-./.test(arg)) {
        return { reason: `${name}: ${arg} after its operands` };
      }
      operands.push(word);
      if (spec.optionsFirst === true) optionsEnded = true;
      continue;
    }
    if (word.glob) return { reason: `${name}: an option-like word holding a pattern (${arg})` };
    if (arg === '--') {
      optionsEnded = true;
      continue;
    }
    if (spec.numericShort === true && /^-[0-9]+$/.test(arg)) {
      texts.push(arg.slice(1));
      continue;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const option = equals < 0 ? arg : arg.slice(0, equals);
      const kind = Object.hasOwn(spec.options, option) ? spec.options[option] : undefined;
      if (kind === undefined) return { reason: `${name} ${option} is not an option it allows` };
      given.add(option);
      if (kind === 'flag' || (kind === 'optional' && equals < 0)) {
        if (equals >= 0) return { reason: `${name} ${option} takes no value` };
        continue;
      }
      const value = equals >= 0 ? { ...word, text: arg.slice(equals + 1) } : args[++i];
      if (value === undefined) return { reason: `${name} ${option} without its value` };
      // A program whose long option takes its value only after `=` would read this word as an option.
      if (equals < 0 && value.text.startsWith('-')) {
        return { reason: `${name} ${option}: a value that looks like an option` };
      }
      if (kind === 'pair') {
        const second = equals >= 0 ? undefined : args[++i];
        if (second === undefined) return { reason: `${name} ${option} takes two words` };
        const reason = take('value', second);
        if (reason !== undefined) return { reason };
      }
      const reason = take(kind === 'pair' || kind === 'optional' ? 'value' : kind, value);
      if (reason !== undefined) return { reason };
      continue;
    }
    for (let l = 1; l < arg.length; l++) {
      const option = `-${arg[l]}`;
      const kind = Object.hasOwn(spec.options, option) ? spec.options[option] : undefined;
      if (kind === undefined) return { reason: `${name} ${option} is not an option it allows` };
      given.add(option);
      if (kind === 'flag') continue;
      if (kind === 'pair' || kind === 'optional')
        return { reason: `${name} ${option} is long only` };
      if (spec.valuesAlone === true && arg.length !== 2) {
        return { reason: `${name} ${option} must stand alone with its value in the next word` };
      }
      const glued = arg.slice(l + 1);
      const value = glued !== '' ? { ...word, text: glued } : args[++i];
      if (value === undefined) return { reason: `${name} ${option} without its value` };
      const reason = take(kind, value);
      if (reason !== undefined) return { reason };
      break;
    }
  }
  const scriptless = spec.scriptless?.some((option) => given.has(option)) ?? false;
  const leading = scriptGiven || scriptless ? 0 : (spec.leading ?? 0);
  if (operands.length < leading) return { reason: `${name} without its script or pattern` };
  for (const word of operands.slice(0, leading)) {
    if (word.glob) return { reason: `${name}: a pattern the shell expands as its script` };
    texts.push(word.text);
    scripts.push(word.text);
  }
  const rest = operands.slice(leading);
  if (spec.maxOperands !== undefined && rest.length > spec.maxOperands) {
    return { reason: `${name} with ${rest.length} operands (at most ${spec.maxOperands})` };
  }
  for (const word of rest) {
    const assignment = spec.assignments === true && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text);
    if (spec.operands === 'text' || assignment) {
      if (word.glob) return { reason: `${name}: a pattern the shell expands as a text operand` };
      texts.push(word.text);
      textOperands.push(word.text);
    } else if (word.text !== '-') files.push(word);
  }
  const reason = spec.check?.({ scripts, operands: textOperands, options: given });
  if (reason !== undefined) return { reason };
  const recursive = spec.recursive?.some((option) => given.has(option)) ?? false;
  const namesFiles = files.length > 0 || rest.some((word) => word.text === '-');
  const readsCwd =
    spec.operands === 'files' && !namesFiles && (spec.withoutFiles === 'cwd' || recursive);
  return { texts, files, readsCwd, options: given };
}
