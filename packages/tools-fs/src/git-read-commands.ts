import {
  optionsOf as all,
  type OptionKind,
  type ProgramSpec,
  parseArguments,
} from './command-options.js';
import type { ShellWord } from './shell-words.js';

const flags = (names: string) => all('flag', names);
const values = (names: string) => all('value', names);
const optional = (names: string) => all('optional', names);

/** A git read: its operands are revisions and pathspecs (text); git reads the repository. */
function git(options: Record<string, OptionKind>, more: Partial<ProgramSpec> = {}): ProgramSpec {
  return { options, operands: 'text', withoutFiles: 'stdin', ...more };
}

const LOG_FLAGS =
  '--oneline --stat --shortstat --numstat --name-only --name-status --graph --decorate --no-decorate --all --no-merges --merges --first-parent --reverse -p --patch -u --no-patch -s --abbrev-commit --no-abbrev-commit --no-color --date-order --topo-order --author-date-order --follow --full-history --summary --raw --source --left-right --boundary --no-renames --relative-date --no-ext-diff --no-textconv';
const LOG_VALUES =
  '-n --max-count --skip --since --until --after --before --author --committer --grep --format --date --diff-filter -U -S -G -L';
const DIFF_FLAGS =
  '--stat --shortstat --numstat --name-only --name-status --cached --staged --no-color --summary -p --patch -u --raw -w -b -R --ignore-all-space --ignore-space-change --ignore-blank-lines --no-renames --exit-code --quiet --minimal --patience --histogram --check --full-index --no-ext-diff --no-textconv --dirstat';

/**
 * The git subcommands that only read, each with the options it accepts. Left out on purpose:
 * `--output`, `--ext-diff`, `--textconv`, `--show-signature`, `-O`/`--open-files-in-pager`,
 * `--no-index`, `describe --dirty`/`--broken` (they refresh `.git/index`), and every subcommand
 * that writes, fetches or runs a program (`fetch`, `pull`, `remote show`, `help`, …).
 */
const GIT_SPECS: Readonly<Record<string, ProgramSpec>> = {
  status: git({
    ...flags(
      '-s --short -b --branch --long -v --verbose --ahead-behind --no-ahead-behind --renames --no-renames --show-stash -z',
    ),
    ...optional('--porcelain --untracked-files --ignored'),
  }),
  log: git(
    { ...flags(LOG_FLAGS), ...values(LOG_VALUES), ...optional('--pretty --abbrev') },
    {
      numericShort: true,
    },
  ),
  show: git({ ...flags(LOG_FLAGS), ...values(LOG_VALUES), ...optional('--pretty --abbrev') }),
  diff: git({ ...flags(DIFF_FLAGS), ...values('-U --diff-filter --unified') }),
  shortlog: git(flags('-s -n -e -c --summary --numbered --email --all --no-merges')),
  'rev-list': git(
    {
      ...flags('--count --all --reverse --no-merges --merges --first-parent --left-right'),
      ...values('-n --max-count --since --until --author'),
    },
    { numericShort: true },
  ),
  'rev-parse': git({
    ...flags(
      '--abbrev-ref --show-toplevel --git-dir --absolute-git-dir --git-common-dir --verify --symbolic-full-name --is-inside-work-tree --is-inside-git-dir --show-prefix --show-cdup -q --quiet',
    ),
    ...optional('--short'),
  }),
  'ls-files': git({
    ...flags(
      '-c -m -o -d -s -u -z -t --cached --modified --others --deleted --stage --unmerged --exclude-standard --directory --full-name --error-unmatch',
    ),
    ...values('-x --exclude'),
  }),
  'ls-tree': git({
    ...flags('-r -t -d -l -z --name-only --name-status --full-name --full-tree --long'),
    ...optional('--abbrev'),
  }),
  blame: git({
    ...flags('-w -s -e -l -t -p -f -n -c --porcelain --line-porcelain --show-name --show-number'),
    ...values('-L'),
  }),
  describe: git({
    ...flags('--tags --always --long --all --exact-match --first-parent'),
    ...values('--match --exclude --candidates'),
    ...optional('--abbrev'),
  }),
  'merge-base': git(flags('--is-ancestor --all --octopus')),
  'show-ref': git({
    ...flags('--heads --tags -s -d --verify --dereference'),
    ...optional('--hash'),
  }),
  'for-each-ref': git(values('--format --sort --count --points-at --merged --contains')),
  'cat-file': git(flags('-p -t -s -e')),
  grep: git({
    ...flags(
      '-n -i -l -L -c -v -w -h -H -E -F -P -G -I -o -q --cached --untracked --line-number --ignore-case --files-with-matches --files-without-match --count --heading --break --full-name --all-match --and --or --not --invert-match --word-regexp --extended-regexp --fixed-strings --perl-regexp --only-matching --quiet',
    ),
    ...values('-A -B -C -m --max-depth --max-count --after-context --before-context --context'),
    '-e': 'script',
  }),
  // Listing forms only: with an operand they create (`git branch x`, `git tag v1`).
  branch: git(flags('-a -r -v -l --all --remotes --verbose --list --show-current --no-color'), {
    check: ({ operands, options }) => listingOnly(operands, options),
  }),
  tag: git(
    { ...flags('-l --list'), ...values('--sort --contains --points-at --format') },
    { check: ({ operands, options }) => listingOnly(operands, options) },
  ),
  remote: git(flags('-v --verbose'), { maxOperands: 0 }),
  config: git(
    {
      ...flags('-l --list --show-origin --show-scope --local --name-only -z --null'),
      ...values('--get --get-all --get-regexp'),
    },
    {
      maxOperands: 1,
      check: ({ options }) =>
        ['--get', '--get-all', '--get-regexp', '--list', '-l'].some((o) => options.has(o))
          ? undefined
          : 'git config without --get or --list may write',
    },
  ),
  version: git({}, { maxOperands: 0 }),
};

function listingOnly(operands: readonly string[], options: ReadonlySet<string>) {
  return operands.length === 0 || options.has('-l') || options.has('--list')
    ? undefined
    : 'creates what it names';
}

/** What a `git` call reads, as far as its words tell: the directories of its `-C` options. */
export type GitCall = { readonly directories: readonly ShellWord[] } | { readonly reason: string };

/**
 * Reads a `git` call against the allowlist: global options `--no-pager`, `-P`,
 * `--no-optional-locks` and `-C DIR` (whose directories it answers, in order: each moves where
 * git starts), then a read-only subcommand with only the options listed for it. No operand may
 * name a path outside the directory by being absolute or climbing with `..` (`git diff a
 * /outside/b` compares files outside any repository).
 */
export function gitCall(args: readonly ShellWord[]): GitCall {
  const directories: ShellWord[] = [];
  let i = 0;
  for (; i < args.length && args[i]!.text.startsWith('-'); i++) {
    const option = args[i]!.text;
    if (option === '-C') {
      const directory = args[++i];
      if (directory === undefined || directory.glob)
        return { reason: 'git -C without a plain directory' };
      directories.push(directory);
    } else if (!['--no-pager', '-P', '--no-optional-locks'].includes(option)) {
      return { reason: `git ${option} is not a global option it allows` };
    }
  }
  const sub = args[i]?.text;
  const spec = sub !== undefined && Object.hasOwn(GIT_SPECS, sub) ? GIT_SPECS[sub] : undefined;
  if (spec === undefined)
    return { reason: `git ${sub ?? ''} is not a read-only git command`.trim() };
  const parsed = parseArguments({ name: `git ${sub}`, spec, args: args.slice(i + 1) });
  if ('reason' in parsed) return { reason: parsed.reason };
  const outside = parsed.texts.find(
    (text) => text.startsWith('/') || text.split('/').includes('..'),
  );
  if (outside !== undefined) return { reason: `git ${sub}: ${outside} may name a path outside` };
  // `%G?`, `%GS`, … and `%(signature)` in a format verify signatures: they run gpg.
  if (parsed.texts.some((text) => /%G|%\(signature/.test(text))) {
    return { reason: `git ${sub}: a format that checks signatures (runs gpg)` };
  }
  return { directories };
}
