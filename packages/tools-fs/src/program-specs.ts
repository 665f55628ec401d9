import { optionsOf as all, type ProgramSpec } from './command-options.js';
import { awkProgramIsSafe, sedScriptIsSafe } from './script-checks.js';

const flags = (names: string) => all('flag', names);
const values = (names: string) => all('value', names);

const GREP: ProgramSpec = {
  options: {
    ...flags(
      '-r -i -y -n -l -L -c -v -w -x -o -q -s -h -H -E -F -G -P -I -a -b -z -Z -T -U --recursive --ignore-case --no-ignore-case --line-number --files-with-matches --files-without-match --count --invert-match --word-regexp --line-regexp --only-matching --quiet --silent --no-messages --no-filename --with-filename --extended-regexp --fixed-strings --basic-regexp --perl-regexp --null --null-data --initial-tab --text --byte-offset',
    ),
    ...values(
      '-A -B -C -m --after-context --before-context --context --max-count --include --exclude --exclude-dir --label',
    ),
    '-e': 'script',
    '--regexp': 'script',
    '-f': 'scriptFile',
    '--file': 'scriptFile',
  },
  numericShort: true,
  leading: 1,
  operands: 'files',
  withoutFiles: 'stdin',
  recursive: ['-r', '--recursive'],
};

const HEAD_TAIL: ProgramSpec = {
  options: {
    ...flags('-q -v -z --quiet --silent --verbose --zero-terminated'),
    ...values('-c -n --bytes --lines'),
  },
  numericShort: true,
  operands: 'files',
  withoutFiles: 'stdin',
};

const CHECKSUM: ProgramSpec = {
  options: flags('-b -t -z --binary --text --tag --zero'),
  operands: 'files',
  withoutFiles: 'stdin',
};

const TEXT: ProgramSpec = { options: {}, operands: 'text', withoutFiles: 'stdin' };

/**
 * The read-only programs and, for each, every option it accepts (exactly spelled, with what
 * it takes). Options that write (`sort -o`), run programs (`rg --pre`, `rg -z`, `sort
 * --compress-program`, `file -z`), name a file to read that is not declared (`sort
 * --files0-from`, `diff --from-file`, `date -f`), follow symbolic links out of the tree
 * (`grep -R`, `ls -L`, `rg -L`, `tree -l`) or shift which word is the script (`awk -W`,
 * `sed --line-length`) are simply not listed. `find` and `git` have their own readers.
 */
export const PROGRAM_SPECS: Readonly<Record<string, ProgramSpec>> = {
  cat: {
    options: flags(
      '-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs --show-nonprinting',
    ),
    operands: 'files',
    withoutFiles: 'stdin',
  },
  tac: { options: flags('-b -r --before --regex'), operands: 'files', withoutFiles: 'stdin' },
  nl: { options: values('-b -n -w -s -v -i'), operands: 'files', withoutFiles: 'stdin' },
  head: HEAD_TAIL,
  tail: HEAD_TAIL,
  wc: {
    options: flags('-c -m -l -L -w --bytes --chars --lines --max-line-length --words'),
    operands: 'files',
    withoutFiles: 'stdin',
  },
  ls: {
    options: {
      ...flags(
        '-a -A -l -h -1 -R -r -t -S -d -F -p -i -s -g -o -n -U -X -v -c -u -x -C -m -Q -N -b -B -q -k -G --all --almost-all --human-readable --recursive --reverse --directory --classify --inode --size --numeric-uid-gid --group-directories-first --no-group --full-time',
      ),
      ...values('-I -w -T --ignore --width --sort --time-style'),
    },
    operands: 'files',
    withoutFiles: 'cwd',
  },
  stat: {
    options: { ...flags('-t -f --terse --file-system'), ...values('-c --format --printf') },
    operands: 'files',
    withoutFiles: 'stdin',
  },
  du: {
    options: {
      ...flags(
        '-s -h -a -c -b -k -m -x --summarize --human-readable --all --total --apparent-size --bytes --one-file-system',
      ),
      ...values('-d --max-depth --exclude'),
    },
    operands: 'files',
    withoutFiles: 'cwd',
  },
  tree: {
    options: {
      ...flags('-a -d -f -i -n -F -h -s -D -C -Q --noreport --dirsfirst --du'),
      ...values('-L -P -I --filelimit'),
    },
    // tree takes a value from the next word even inside a cluster (`-PL x y`): never glued.
    valuesAlone: true,
    operands: 'files',
    withoutFiles: 'cwd',
  },
  file: {
    options: flags('-b -i -L -h -E --brief --mime --mime-type --mime-encoding --dereference'),
    operands: 'files',
    withoutFiles: 'stdin',
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    options: {
      ...flags(
        '-i -n -N -l -c -v -w -x -o -q -s -S -F -u -U -P -H -I -0 --hidden --no-ignore --files --files-with-matches --files-without-match --count --count-matches --ignore-case --smart-case --case-sensitive --line-number --no-line-number --no-heading --heading --fixed-strings --word-regexp --invert-match --only-matching --vimgrep --json --stats --null --trim --no-messages --multiline --pcre2 --with-filename --no-filename',
      ),
      ...values(
        '-A -B -C -m -g -t -T -M -j -r -d --after-context --before-context --context --max-count --glob --iglob --type --type-not --max-columns --threads --replace --max-depth --max-filesize --sort --sortr',
      ),
      '-e': 'script',
      '--regexp': 'script',
      '-f': 'scriptFile',
      '--file': 'scriptFile',
    },
    leading: 1,
    scriptless: ['--files'],
    operands: 'files',
    withoutFiles: 'cwd',
  },
  sort: {
    options: {
      ...flags(
        '-b -d -f -g -h -i -M -n -R -r -V -c -C -s -u -z --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --human-numeric-sort --ignore-nonprinting --month-sort --numeric-sort --random-sort --reverse --version-sort --check --stable --unique --zero-terminated',
      ),
      ...values('-k -t --key --field-separator'),
    },
    operands: 'files',
    withoutFiles: 'stdin',
  },
  uniq: {
    options: {
      ...flags('-c -d -D -u -i -z --count --repeated --unique --ignore-case --zero-terminated'),
      ...values('-f -s -w --skip-fields --skip-chars --check-chars'),
    },
    operands: 'files',
    maxOperands: 1,
    withoutFiles: 'stdin',
  },
  cut: {
    options: {
      ...flags('-s -n -z --complement --only-delimited --zero-terminated'),
      ...values('-d -f -c -b --delimiter --fields --characters --bytes --output-delimiter'),
    },
    operands: 'files',
    withoutFiles: 'stdin',
  },
  column: {
    options: { ...flags('-t -x -n'), ...values('-s -c -o') },
    operands: 'files',
    withoutFiles: 'stdin',
  },
  // Not -r: diff follows symbolic links it meets inside the folders it compares.
  diff: {
    options: {
      ...flags(
        '-u -q -N -w -b -B -i -a -s -y -c --brief --new-file --ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-case --text --report-identical-files --side-by-side',
      ),
      ...values('-U -C -x --label --exclude'),
    },
    operands: 'files',
    maxOperands: 2,
    withoutFiles: 'stdin',
  },
  cmp: {
    options: { ...flags('-l -s -b --quiet --silent --verbose --print-bytes'), ...values('-n') },
    operands: 'files',
    maxOperands: 2,
    withoutFiles: 'stdin',
  },
  comm: {
    options: flags('-1 -2 -3 -z --check-order --nocheck-order --zero-terminated'),
    operands: 'files',
    maxOperands: 2,
    withoutFiles: 'stdin',
  },
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha512sum: CHECKSUM,
  realpath: {
    options: flags('-e -m -q -s -z --canonicalize-existing --canonicalize-missing --quiet'),
    operands: 'files',
    withoutFiles: 'stdin',
  },
  readlink: {
    options: flags('-f -e -m -n -q -s -v -z'),
    operands: 'files',
    withoutFiles: 'stdin',
  },
  od: {
    // Not -w: its value is optional (`-w8`), so `od -w a.txt` would read a.txt undeclared.
    options: { ...flags('-c -x -d -o -v -b'), ...values('-A -t -N -j') },
    operands: 'files',
    withoutFiles: 'stdin',
  },
  strings: {
    options: { ...flags('-a -f'), ...values('-n -t') },
    operands: 'files',
    withoutFiles: 'stdin',
  },
  jq: {
    options: {
      ...flags(
        '-r -c -S -e -j -a -n -s --raw-output --compact-output --sort-keys --exit-status --join-output --ascii-output --null-input --slurp --tab',
      ),
      ...all('pair', '--arg --argjson'),
      '--indent': 'value',
    },
    leading: 1,
    operands: 'files',
    withoutFiles: 'stdin',
    // `import` and `include` read modules from ~/.jq and the library folders.
    check: ({ scripts }) =>
      scripts.some((script) => /import|include/.test(script))
        ? 'a jq filter that loads modules'
        : undefined,
  },
  sed: {
    options: {
      ...flags(
        '-n -E -r -s -u -z --quiet --silent --regexp-extended --separate --unbuffered --null-data --posix',
      ),
      '-e': 'script',
      '--expression': 'script',
    },
    leading: 1,
    operands: 'files',
    withoutFiles: 'stdin',
    check: ({ scripts }) =>
      scripts.every(sedScriptIsSafe)
        ? undefined
        : 'a sed script that may write a file, read one or run a command',
  },
  awk: {
    options: values('-F -v'),
    leading: 1,
    optionsFirst: true,
    assignments: true,
    operands: 'files',
    withoutFiles: 'stdin',
    check: ({ scripts }) =>
      scripts.every(awkProgramIsSafe)
        ? undefined
        : 'an awk program that may write, pipe, run a command or read another file',
  },
  tr: { options: flags('-c -C -d -s -t'), operands: 'text', withoutFiles: 'stdin' },
  echo: { options: flags('-n -e -E'), operands: 'text', withoutFiles: 'stdin' },
  printf: TEXT,
  true: TEXT,
  false: TEXT,
  sleep: TEXT,
  pwd: { options: flags('-L -P'), operands: 'text', maxOperands: 0, withoutFiles: 'stdin' },
  whoami: { options: {}, operands: 'text', maxOperands: 0, withoutFiles: 'stdin' },
  uname: {
    options: flags('-a -s -n -r -v -m -p -i -o --all'),
    operands: 'text',
    maxOperands: 0,
    withoutFiles: 'stdin',
  },
  basename: { ...TEXT, options: { ...flags('-a -z'), ...values('-s') } },
  dirname: { options: flags('-z'), operands: 'text', withoutFiles: 'stdin' },
  seq: { options: { ...flags('-w'), ...values('-s -f') }, operands: 'text', withoutFiles: 'stdin' },
  which: { options: flags('-a'), operands: 'text', withoutFiles: 'stdin' },
  date: {
    options: { ...flags('-u -R --utc --rfc-email'), ...all('script', '-d --date') },
    operands: 'text',
    maxOperands: 1,
    withoutFiles: 'stdin',
    // An operand that is not `+FORMAT` sets the clock; `-d 'TZ="/path" now'` reads a zone file.
    check: ({ operands, scripts }) =>
      !operands.every((operand) => operand.startsWith('+'))
        ? 'date that sets the clock'
        : scripts.some((text) => /tz/i.test(text))
          ? 'a date string naming a time zone file'
          : undefined,
  },
};
