#!/usr/bin/env node
// `pnpm test:durations`, after a run of the suite: copies how long each test file took, from
// vitest's own results cache (node_modules/.vite/vitest/*/results.json, keyed `project:path`, the
// whole file's time, its hooks included), into test-support/file-durations.json. The suite's
// sequencer (vitest.config.ts) reads that file where vitest has no time of its own for a file: on
// a fresh clone, as in CI, vitest's cache is empty, and ordering by file size started the files
// that wait longest (crash rounds, paused holders) last, so the run ended on them. The times only
// order the files: a stale or missing entry changes the order, never what runs.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = fileURLToPath(new URL('../node_modules/.vite/vitest/', import.meta.url));
const caches = readdirSync(cacheDir)
  .map((hash) => `${cacheDir}${hash}/results.json`)
  .filter((path) => statSync(path, { throwIfNoEntry: false }) !== undefined)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
if (caches.length === 0) {
  console.error(`no vitest results cache under ${cacheDir}: run the suite first`);
  process.exit(2);
}
const { results } = JSON.parse(readFileSync(caches[0], 'utf8'));
const durations = Object.fromEntries(
  results
    // Files renamed or removed since stay in vitest's cache: only files of today's tree are kept.
    .filter(
      ([key, result]) =>
        typeof result?.duration === 'number' && existsSync(repo + key.slice(key.indexOf(':') + 1)),
    )
    .map(([key, result]) => [key, Math.round(result.duration)])
    .sort(([a], [b]) => a.localeCompare(b)),
);
const target = new URL('../test-support/file-durations.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(durations, null, 2)}\n`);
console.log(
  `${Object.keys(durations).length} files' durations written to ${fileURLToPath(target)}`,
);
