#!/usr/bin/env node
// `pnpm test:slowest`, after vitest wrote its JSON report: prints the test files that took
// longest (wall time of each file in its worker, setup included), with their project, the sum of
// every file's time, and how many files and tests there were. Usage: slowest-test-files.mjs
// REPORT [COUNT] (default 5).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const [file, count = '5'] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: slowest-test-files.mjs REPORT.json [COUNT]');
  process.exit(2);
}
const repo = fileURLToPath(new URL('..', import.meta.url));
const report = JSON.parse(readFileSync(file, 'utf8'));
const files = report.testResults
  .map((result) => ({
    path: relative(repo, result.name),
    ms: result.endTime - result.startTime,
    tests: result.assertionResults.length,
  }))
  .sort((a, b) => b.ms - a.ms);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
for (const { path, ms, tests } of files.slice(0, Number(count))) {
  console.log(`${seconds(ms).padStart(8)}  ${path} (${tests} tests)`);
}
const total = files.reduce((sum, { ms }) => sum + ms, 0);
console.log(
  `${files.length} files, ${report.numTotalTests} tests, ${seconds(total)} of file time in all`,
);
