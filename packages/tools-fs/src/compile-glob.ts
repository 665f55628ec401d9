import { expandBraces } from './expand-braces.js';
import { FsToolsError } from './fs-tools-error.js';

/** A compiled glob pattern, matched against `/`-separated relative paths. */
export interface GlobMatcher {
  /** The pattern as given. */
  readonly pattern: string;
  /** Whether the relative path (e.g. `src/a.ts`) matches the whole pattern. */
  matches(path: string): boolean;
  /** Whether something below the relative folder (e.g. `src`) could match: worth walking into. */
  mayMatchBelow(folder: string): boolean;
}

type Step = { readonly kind: 'globstar' } | { readonly kind: 'segment'; readonly test: RegExp };

/**
 * Compiles a glob pattern: `*` (any run of characters but `/`), `?` (one character), `[abc]`,
 * `[a-z]`, `[!abc]` or `[^abc]` (one character of, or not of, a class), `**` as a whole segment
 * (any number of folders, none included), `{a,b}` alternatives (nested too), `\` to escape.
 * As in shells, `*`, `?`, a class and `**` never match a name starting with `.` unless the
 * pattern's segment starts with a literal `.` (so `**` skips hidden folders). Matching is
 * case-sensitive. Paths are matched segment by segment, so a walk can skip every folder the
 * pattern cannot reach.
 *
 * @throws FsToolsError `invalid_pattern` for an empty or absolute pattern, a bad class, or too
 * many alternatives; `invalid_path` for a `..` segment (a pattern may not climb out of its folder).
 * @example
 * ```ts
 * const ts = compileGlob('src/**\/*.{ts,tsx}');
 * ts.matches('src/a/b.tsx'); // true
 * ts.mayMatchBelow('test');  // false
 * ```
 */
export function compileGlob(pattern: string): GlobMatcher {
  if (pattern === '' || pattern.includes('\0')) {
    throw new FsToolsError({
      code: 'invalid_pattern',
      message: `invalid pattern ${JSON.stringify(pattern)}: it is empty or holds a NUL byte`,
    });
  }
  if (pattern.startsWith('/')) {
    throw new FsToolsError({
      code: 'invalid_pattern',
      message: `invalid pattern \`${pattern}\`: it must be relative to the folder searched (give the folder as \`path\`)`,
    });
  }
  const programs = expandBraces(pattern).map((expanded) => compileSteps(pattern, expanded));
  return {
    pattern,
    matches: (path) => programs.some((steps) => run(steps, split(path)).has(steps.length)),
    mayMatchBelow: (folder) =>
      programs.some((steps) =>
        [...run(steps, split(folder))].some((state) => state < steps.length),
      ),
  };
}

function split(path: string): string[] {
  return path === '' || path === '.' ? [] : path.split('/');
}

function compileSteps(pattern: string, expanded: string): Step[] {
  const steps: Step[] = [];
  for (const segment of expanded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      throw new FsToolsError({
        code: 'invalid_path',
        message: `invalid pattern \`${pattern}\`: \`..\` may not appear in a pattern (give the folder to search as \`path\`)`,
      });
    }
    if (segment === '**') {
      if (steps.at(-1)?.kind !== 'globstar') steps.push({ kind: 'globstar' });
    } else {
      steps.push({ kind: 'segment', test: segmentRegExp(pattern, segment) });
    }
  }
  if (steps.length === 0) {
    throw new FsToolsError({
      code: 'invalid_pattern',
      message: `invalid pattern \`${pattern}\`: it names no file`,
    });
  }
  return steps;
}

/** The states (positions in `steps`) reached after matching the segments, closed over `**`. */
function run(steps: readonly Step[], segments: readonly string[]): Set<number> {
  let states = closure(steps, [0]);
  for (const segment of segments) {
    const next: number[] = [];
    for (const state of states) {
      const step = steps[state];
      if (step === undefined) continue;
      if (step.kind === 'globstar') {
        if (!segment.startsWith('.')) next.push(state);
      } else if (step.test.test(segment)) {
        next.push(state + 1);
      }
    }
    states = closure(steps, next);
    if (states.size === 0) break;
  }
  return states;
}

function closure(steps: readonly Step[], states: readonly number[]): Set<number> {
  const reached = new Set<number>();
  for (let state of states) {
    reached.add(state);
    while (steps[state]?.kind === 'globstar') {
      state += 1;
      reached.add(state);
    }
  }
  return reached;
}

/** Characters a regular expression (in `u` mode) needs escaped. */
const SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

/** One path segment of a pattern as an anchored regular expression. */
function segmentRegExp(pattern: string, segment: string): RegExp {
  let source = '';
  for (let at = 0; at < segment.length; at += 1) {
    const char = segment[at] as string;
    if (char === '\\' && at + 1 < segment.length) {
      at += 1;
      source += (segment[at] as string).replace(SPECIAL, '\\$&');
    } else if (char === '*') {
      if (!source.endsWith('[^/]*')) source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[' && classClose(segment, at) !== undefined) {
      const close = classClose(segment, at) as number;
      let body = segment.slice(at + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^/' : ''}${body.replace(/[\\[\]^]/g, '\\$&')}]`;
      at = close;
    } else {
      source += char.replace(SPECIAL, '\\$&');
    }
  }
  const hidden = segment.startsWith('.') ? '' : '(?!\\.)';
  try {
    return new RegExp(`^${hidden}${source}$`, 'u');
  } catch (cause) {
    throw new FsToolsError({
      code: 'invalid_pattern',
      message: `invalid pattern \`${pattern}\`: ${(cause as Error).message}`,
      cause,
    });
  }
}

/** Index of the `]` closing a class opened at `open` (a `]` right after `[` or `[!` is literal). */
function classClose(segment: string, open: number): number | undefined {
  let at = open + 1;
  if (segment[at] === '!' || segment[at] === '^') at += 1;
  if (segment[at] === ']') at += 1;
  const close = segment.indexOf(']', at);
  return close === -1 ? undefined : close;
}
