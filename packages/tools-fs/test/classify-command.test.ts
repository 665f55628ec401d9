import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../src/index.js';

/** Commands in the shapes agents write, with the paths each reads (or `unsafe`), by hand. */
const SAFE: readonly (readonly [string, readonly string[]])[] = [
  ['ls', ['.']],
  ['ls -la', ['.']],
  ['ls -la src/', ['src']],
  ['ls src/*.ts', ['src']],
  ['ls -1 packages | head -20', ['packages']],
  ['pwd', []],
  ['pwd && ls', ['.']],
  ['cat package.json', ['package.json']],
  ['cat README.md | head -50', ['README.md']],
  ['cat -n src/index.ts', ['src/index.ts']],
  ['head -n 40 src/a.ts', ['src/a.ts']],
  ['head -n5 a.txt b.txt', ['a.txt', 'b.txt']],
  ['tail -20 logs/out.log', ['logs/out.log']],
  ['wc -l src/*.ts', ['src']],
  ['find . -name "*.ts" -type f', ['.']],
  ['find src test -name "*.test.ts" | wc -l', ['src', 'test']],
  ['find . -type f -not -path "./node_modules/*" | head -100', ['.']],
  ['grep -rn "TODO" src/', ['src']],
  ['grep -rn TODO', ['.']],
  ['grep -c "export" src/index.ts', ['src/index.ts']],
  ['grep -e foo -e bar lib', ['lib']],
  ['grep -A 3 -B 2 "function main" src/cli.ts', ['src/cli.ts']],
  ['grep -rl "import.*zod" --include="*.ts" packages', ['packages']],
  ['rg "useEffect" src', ['src']],
  ['rg -n --type ts "class \\w+Tool"', ['.']],
  ['rg --files | head', ['.']],
  ['rg -g "*.md" install docs', ['docs']],
  ['git status', ['.']],
  ['git status --short', ['.']],
  ['git log --oneline -10', ['.']],
  ['git diff', ['.']],
  ['git diff HEAD~1 -- src/a.ts', ['.']],
  ['git show HEAD:package.json', ['.']],
  ['git --no-pager log -5 --stat', ['.']],
  ['git branch', ['.']],
  ['git branch -a', ['.']],
  ['git log --oneline | head -5', ['.']],
  ['git rev-parse --abbrev-ref HEAD', ['.']],
  ['git ls-files | grep test', ['.']],
  ['cd packages/core && ls', ['packages/core']],
  ['cd src && grep -rn TODO . | head -20', ['src']],
  ['cd src; cat index.ts', ['src/index.ts']],
  ['cd packages/core && git status', ['.']],
  ['cd a && cd b && ls', ['a/b']],
  ['cd a && cat ../b.txt', ['b.txt']],
  ['ls 2>/dev/null', ['.']],
  ['ls missing 2>/dev/null || echo none', ['missing']],
  ['cat a.txt 2>&1 | tail -3', ['a.txt']],
  ['find . -name "*.log" > /dev/null', ['.']],
  ['LC_ALL=C sort names.txt', ['names.txt']],
  ['NO_COLOR=1 git diff --stat', ['.']],
  ['GIT_PAGER=cat git log -3', ['.']],
  ['sort data.csv | uniq -c | sort -rn | head', ['data.csv']],
  ['cut -d , -f 1 data.csv | sort -u', ['data.csv']],
  ['sed -n "1,20p" src/a.ts', ['src/a.ts']],
  ["sed -n '/start/,/end/p' notes.md", ['notes.md']],
  ["sed 's/foo/bar/g' in.txt | head", ['in.txt']],
  ["awk '{print $1}' access.log | sort | uniq -c", ['access.log']],
  ['jq .version package.json', ['package.json']],
  ['jq -r ".scripts | keys[]" package.json', ['package.json']],
  ['echo hello', []],
  ['echo "done" && ls dist', ['dist']],
  ['diff -u a.txt b.txt', ['a.txt', 'b.txt']],
  ['stat -c %s big.bin', ['big.bin']],
  ['du -sh node_modules', ['node_modules']],
  ['tree -L 2 src', ['src']],
  ['which git', []],
  ['cat < input.txt | wc -c', ['input.txt', '.']],
  ['file dist/index.js', ['dist/index.js']],
  ['ls -la | grep "^d" # folders only', ['.']],
];

const UNSAFE: readonly string[] = [
  'rm -rf dist',
  'npm test',
  'pnpm install',
  'npx vitest run',
  'python3 -c "import os; print(os.listdir())"',
  'node -e "console.log(1)"',
  'ls > files.txt',
  'echo hi >> notes.md',
  'cat a.txt | tee b.txt',
  'git commit -m "fix"',
  'git add -A && git commit -m wip',
  'git checkout -b feature',
  'git branch -D old',
  'git stash',
  'git diff --output=patch.diff',
  'git -c core.pager=sh log',
  'echo $(whoami)',
  'cat $(find . -name a.txt)',
  'echo `date`',
  'cat $HOME/.bashrc',
  'eval "ls"',
  'find . -name "*.tmp" -delete',
  'find . -name "*.ts" -exec sed -i s/a/b/ {} \\;',
  'sed -i "s/a/b/" src/a.ts',
  "sed -i.bak 's/x/y/' f",
  "sed -n 'w out.txt' in.txt",
  'sort -o sorted.txt names.txt',
  'uniq in.txt out.txt',
  'awk \'{print > "out.txt"}\' in.txt',
  'cat <<EOF > notes.md\nhello\nEOF',
  'cat <<EOF\nhello\nEOF',
  '(cd src && ls)',
  'ls &',
  'PATH=/tmp/evil ls',
  'LD_PRELOAD=/x.so cat a',
  'cd ~ && ls',
  'cat ~/.ssh/id_rsa',
  'cd && ls',
  'cd - && ls',
  'ls\nrm -rf build',
  'ls # list\nrm -rf build',
  'mkdir -p out && ls out',
  'touch a.txt',
  'chmod +x run.sh && ./run.sh',
  './scripts/build.sh',
  'curl -s https://example.com | head',
  'xargs cat < list.txt',
  'ls | xargs rm',
  'cp a.txt b.txt',
  'mv a b',
  'for f in *.ts; do cat $f; done',
  'if true; then ls; fi',
  'ls <(echo a)',
  'diff <(sort a) <(sort b)',
  'rg --pre ./decode.sh secret',
  'tree -o out.txt',
  'date -s "2020-01-01"',
  'jq --rawfile x secret.txt . a.json',
  'cat a >| b',
  'ls &> listing.txt',
  'cat notes#1.md',
  '',
];

describe('classifyCommand', () => {
  it('holds at least 80 commands in the table', () => {
    expect(SAFE.length + UNSAFE.length).toBeGreaterThanOrEqual(80);
  });

  it.each(SAFE)('%j is concurrency-safe and reads what it names', (command, reads) => {
    const found = classifyCommand(command);
    expect(found).toEqual({ concurrencySafe: true, reads });
  });

  it.each(UNSAFE)('%j is not concurrency-safe', (command) => {
    const found = classifyCommand(command);
    expect(found.concurrencySafe).toBe(false);
    if (!found.concurrencySafe) expect(found.reason).not.toBe('');
  });

  it('says why', () => {
    expect(classifyCommand('ls > x')).toEqual({
      concurrencySafe: false,
      reason: 'redirects output (>)',
    });
    expect(classifyCommand('rm x')).toEqual({
      concurrencySafe: false,
      reason: '`rm` is not a known read-only command',
    });
    expect(classifyCommand('echo $(id)')).toEqual({
      concurrencySafe: false,
      reason: '$(…) runs a command',
    });
  });
});
