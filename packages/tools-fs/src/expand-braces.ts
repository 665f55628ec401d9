import { FsToolsError } from './fs-tools-error.js';

/** Most patterns one brace expansion may produce. */
export const MAX_BRACE_EXPANSIONS = 1024;

/**
 * Expands the `{a,b}` alternatives of a glob pattern, nested ones included, into plain patterns
 * (left to right, duplicates kept out). A `{` without a top-level comma inside, or without its
 * `}`, is literal; `\{` is escaped; braces inside `[...]` are literal.
 *
 * @throws FsToolsError `invalid_pattern` when the pattern expands to more than
 * {@link MAX_BRACE_EXPANSIONS} patterns.
 * @example expandBraces('src/{a,b{1,2}}.ts') // ['src/a.ts', 'src/b1.ts', 'src/b2.ts']
 */
export function expandBraces(pattern: string): string[] {
  const results = new Set<string>();
  const pending = [pattern];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const group = firstGroup(current);
    if (group === undefined) {
      results.add(current);
    } else {
      const before = current.slice(0, group.open);
      const after = current.slice(group.close + 1);
      for (const alternative of [...group.alternatives].reverse()) {
        pending.push(before + alternative + after);
      }
    }
    if (results.size + pending.length > MAX_BRACE_EXPANSIONS) {
      throw new FsToolsError({
        code: 'invalid_pattern',
        message: `invalid pattern \`${pattern}\`: its {a,b} alternatives expand to more than ${MAX_BRACE_EXPANSIONS} patterns`,
      });
    }
  }
  return [...results];
}

interface BraceGroup {
  readonly open: number;
  readonly close: number;
  readonly alternatives: readonly string[];
}

/** The first `{...}` holding a top-level comma, with its alternatives. */
function firstGroup(pattern: string): BraceGroup | undefined {
  for (let open = 0; open < pattern.length; open += 1) {
    const char = pattern[open];
    if (char === '\\') {
      open += 1;
    } else if (char === '[') {
      open = classEnd(pattern, open);
    } else if (char === '{') {
      const group = groupAt(pattern, open);
      if (group !== undefined) return group;
    }
  }
  return undefined;
}

/** The group opening at `open`, when it closes and holds a top-level comma. */
function groupAt(pattern: string, open: number): BraceGroup | undefined {
  const alternatives: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let at = open + 1; at < pattern.length; at += 1) {
    const char = pattern[at];
    if (char === '\\') {
      at += 1;
    } else if (char === '[') {
      at = classEnd(pattern, at);
    } else if (char === '{') {
      depth += 1;
    } else if (char === '}' && depth > 0) {
      depth -= 1;
    } else if (char === ',' && depth === 0) {
      alternatives.push(pattern.slice(start, at));
      start = at + 1;
    } else if (char === '}') {
      if (alternatives.length === 0) return undefined;
      alternatives.push(pattern.slice(start, at));
      return { open, close: at, alternatives };
    }
  }
  return undefined;
}

/** Index of the `]` closing a class opened at `open`, or `open` itself when it never closes. */
function classEnd(pattern: string, open: number): number {
  let at = open + 1;
  if (pattern[at] === '!' || pattern[at] === '^') at += 1;
  if (pattern[at] === ']') at += 1;
  const close = pattern.indexOf(']', at);
  return close === -1 ? open : close;
}
