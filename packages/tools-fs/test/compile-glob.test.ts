import { describe, expect, it } from 'vitest';
import { expandBraces, MAX_BRACE_EXPANSIONS } from '../src/expand-braces.js';
import { compileGlob, FsToolsError } from '../src/index.js';

const matching = (pattern: string, paths: readonly string[]): string[] => {
  const glob = compileGlob(pattern);
  return paths.filter((path) => glob.matches(path));
};

const PATHS = [
  'a.ts',
  'b.js',
  '.hidden.ts',
  'src/a.ts',
  'src/a.tsx',
  'src/b.js',
  'src/lib/c.ts',
  'src/lib/deep/d.ts',
  'src/.cache/e.ts',
  'test/x.test.ts',
  'x[1].ts',
  'file?.md',
  'ü/日本.ts',
];

describe('compileGlob', () => {
  it.each([
    ['*.ts', ['a.ts', 'x[1].ts']],
    [
      '**/*.ts',
      [
        'a.ts',
        'src/a.ts',
        'src/lib/c.ts',
        'src/lib/deep/d.ts',
        'test/x.test.ts',
        'x[1].ts',
        'ü/日本.ts',
      ],
    ],
    ['src/**/*.ts', ['src/a.ts', 'src/lib/c.ts', 'src/lib/deep/d.ts']],
    ['src/**', ['src/a.ts', 'src/a.tsx', 'src/b.js', 'src/lib/c.ts', 'src/lib/deep/d.ts']],
    ['src/*/*.ts', ['src/lib/c.ts']],
    ['src/a.ts?', ['src/a.tsx']],
    ['**/?.js', ['b.js', 'src/b.js']],
    ['src/*.{ts,tsx}', ['src/a.ts', 'src/a.tsx']],
    ['{src,test}/*.ts', ['src/a.ts', 'test/x.test.ts']],
    ['src/{a,lib/{c,deep/d}}.ts', ['src/a.ts', 'src/lib/c.ts', 'src/lib/deep/d.ts']],
    ['[ab].*', ['a.ts', 'b.js']],
    ['[!a].*', ['b.js']],
    ['[^a].*', ['b.js']],
    ['src/[a-b].js', ['src/b.js']],
    ['x\\[1\\].ts', ['x[1].ts']],
    ['file\\?.md', ['file?.md']],
    ['.*', ['.hidden.ts']],
    ['src/.cache/*', ['src/.cache/e.ts']],
    ['src/**/.cache/*.ts', ['src/.cache/e.ts']],
    ['ü/*.ts', ['ü/日本.ts']],
    ['ü/??.ts', ['ü/日本.ts']],
    ['./src//a.ts', ['src/a.ts']],
    ['**/**/c.ts', ['src/lib/c.ts']],
  ])('%s', (pattern, expected) => {
    expect(matching(pattern, PATHS)).toEqual(expected);
  });

  it('never lets *, ? or ** match a leading dot', () => {
    expect(matching('*', ['.a', 'a'])).toEqual(['a']);
    expect(matching('?a', ['.a', 'ba'])).toEqual(['ba']);
    expect(matching('**/x', ['.git/x', 'a/x', 'x'])).toEqual(['a/x', 'x']);
  });

  it('tells a walk which folders are worth entering', () => {
    const glob = compileGlob('src/*/*.ts');
    expect(glob.mayMatchBelow('src')).toBe(true);
    expect(glob.mayMatchBelow('src/lib')).toBe(true);
    expect(glob.mayMatchBelow('src/lib/deep')).toBe(false);
    expect(glob.mayMatchBelow('test')).toBe(false);
    const deep = compileGlob('**/*.ts');
    expect(deep.mayMatchBelow('a/b/c')).toBe(true);
    expect(deep.mayMatchBelow('.git')).toBe(false);
    expect(compileGlob('.git/**').mayMatchBelow('.git')).toBe(true);
  });

  it.each([
    ['', 'invalid_pattern', 'invalid pattern "": it is empty or holds a NUL byte'],
    [
      '/etc/*',
      'invalid_pattern',
      'invalid pattern `/etc/*`: it must be relative to the folder searched (give the folder as `path`)',
    ],
    [
      '../*',
      'invalid_path',
      'invalid pattern `../*`: `..` may not appear in a pattern (give the folder to search as `path`)',
    ],
    [
      'a/{b,../c}',
      'invalid_path',
      'invalid pattern `a/{b,../c}`: `..` may not appear in a pattern (give the folder to search as `path`)',
    ],
    ['./', 'invalid_pattern', 'invalid pattern `./`: it names no file'],
  ])('refuses %j', (pattern, code, message) => {
    let error: unknown;
    try {
      compileGlob(pattern);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FsToolsError);
    expect(error).toMatchObject({ code, message });
  });

  it('refuses a bad class range', () => {
    expect(() => compileGlob('[z-a]')).toThrow(/^invalid pattern `\[z-a\]`: /);
  });
});

describe('expandBraces', () => {
  it('expands nested groups left to right', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('{x,y}{1,2}')).toEqual(['x1', 'x2', 'y1', 'y2']);
  });

  it('keeps a group without a comma, an unclosed one, an escaped one and one in a class literal', () => {
    expect(expandBraces('a{b}c')).toEqual(['a{b}c']);
    expect(expandBraces('a{b,c')).toEqual(['a{b,c']);
    expect(expandBraces('a\\{b,c}')).toEqual(['a\\{b,c}']);
    expect(expandBraces('[{,]x')).toEqual(['[{,]x']);
  });

  it('refuses a pattern that expands too far', () => {
    const pattern = '{a,b}'.repeat(Math.ceil(Math.log2(MAX_BRACE_EXPANSIONS)) + 1);
    expect(() => expandBraces(pattern)).toThrow(/expand to more than 1024 patterns/);
  });
});
