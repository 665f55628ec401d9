import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * A Lua script read from its own file in `scripts/` (BullMQ's layout: `<name>-<number of
 * keys>.lua`, an Input/Output header, shared code in `scripts/includes/` pulled in by a
 * `--- @include "<path>"` line, indented or not), with its includes expanded and its SHA1 for
 * EVALSHA.
 */
export interface LuaScript {
  /** The file's name without the key count, e.g. `enqueue`. */
  readonly name: string;
  /** How many KEYS it takes (from the file name). */
  readonly numberOfKeys: number;
  /** The source with every include expanded, as sent by `SCRIPT LOAD` or `EVAL`. */
  readonly source: string;
  readonly sha: string;
}

const SCRIPTS = new URL('./scripts/', import.meta.url);
const INCLUDE = /^[ \t]*--- @include "([^"]+)"[ \t]*$/gm;

/**
 * Reads `scripts/<file>` (e.g. `enqueue-13.lua`) and expands its includes: each include's path is
 * relative to the file that names it (`.lua` added), and each is inlined once, where it is
 * first named (a later marker for the same file is dropped), so shared code is defined before it
 * is used. The scripts ship next to the compiled code (`dist/scripts/`), as in the sources.
 */
export function loadLuaScript(file: string): LuaScript {
  const match = /^(.+)-(\d+)\.lua$/.exec(file);
  if (match === null)
    throw new Error(`A script file is named <name>-<number of keys>.lua, got ${file}`);
  const source = expand(new URL(file, SCRIPTS), new Set());
  return {
    name: match[1] as string,
    numberOfKeys: Number(match[2]),
    source,
    sha: createHash('sha1').update(source).digest('hex'),
  };
}

function expand(url: URL, included: Set<string>): string {
  included.add(url.href);
  return readFileSync(url, 'utf8').replace(INCLUDE, (_, path: string) => {
    const target = new URL(`${path}.lua`, url);
    return included.has(target.href) ? '' : expand(target, included);
  });
}
