#!/usr/bin/env node
// `pnpm package`, after `pnpm -r build`: packs every public package (pnpm pack: `workspace:`
// ranges become the packages' versions) into tarballs/ at the repository's root, and prints the
// line that installs them in a project of one's own.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const out = join(repo, 'tarballs');
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
// pnpm runs this script with itself on the PATH (npm_execpath); run alone, npx fetches it
const pnpm = process.env.npm_execpath?.includes('pnpm')
  ? [process.execPath, process.env.npm_execpath]
  : ['npx', '-y', 'pnpm@10'];
// one pnpm run for all of them: every package of packages/, but the private ones
const skip = readdirSync(join(repo, 'packages'))
  .map((dir) => JSON.parse(readFileSync(join(repo, 'packages', dir, 'package.json'), 'utf8')))
  .filter((manifest) => manifest.private === true)
  .map((manifest) => `--filter=!${manifest.name}`);
execFileSync(
  pnpm[0],
  [...pnpm.slice(1), '-r', '--filter=./packages/*', ...skip, 'pack', '--pack-destination', out],
  { cwd: repo, stdio: 'ignore' },
);
const files = readdirSync(out).sort();
console.log(`${files.length} packages packed into ${out}:`);
for (const file of files) console.log(`  ${file}`);
const base = ['planner', 'core', 'executor-rx'].map((name) =>
  join(out, files.find((file) => file.startsWith(`toolwaves-${name}-`)) ?? `toolwaves-${name}`),
);
console.log('In your project (then the integrations you use: see "Use it in your project"):');
console.log(`  npm install ${base.join(' ')} zod inversify`);
