#!/usr/bin/env node
// The packages as a project outside the monorepo gets them: `pnpm package` builds and packs them
// into tarballs/, then each consumer project below (a temp folder with its own package.json, far
// from the workspace) installs the tarballs with plain `npm install`, next to the agent frameworks
// from the registry, checks that every peer dependency resolves to the project's own single copy
// (`npm ls`), type-checks its programs with `tsc --noEmit` and runs each: one turn of the
// framework's own loop on a fake model, its calls scheduled by toolwaves.
//
// Usage: node scripts/consumer-check.mjs [--built] [--keep]
//   --built: the packages are built already (CI runs `pnpm build` first): only pack them
//   --keep:  leave the temp projects in place
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const sources = join(repo, 'scripts/consumer-check/src');
const tarballs = join(repo, 'tarballs');
const keep = process.argv.includes('--keep');
const built = process.argv.includes('--built');
// The TypeScript the monorepo builds with (its root devDependency), so the check reads our
// declaration files with the compiler that wrote them.
const typescript = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).devDependencies
  .typescript;

/** The consumer projects: which toolwaves packages, which frameworks, which programs. */
const PROJECTS = [
  {
    name: 'ai7-langchain-openai-agents',
    toolwaves: ['planner', 'core', 'executor-rx', 'ai-sdk', 'langchain', 'openai-agents'],
    registry: {
      ai: '^7.0.0',
      '@langchain/core': '^1.0.0',
      '@langchain/langgraph': '^1.0.0',
      langchain: '^1.0.0',
      '@openai/agents': '^0.20.0',
    },
    programs: ['ai-sdk-v7', 'langchain', 'openai-agents'],
    // each must resolve to exactly one copy, the project's own, of this major
    peers: { ai: 7, '@langchain/core': 1, '@langchain/langgraph': 1, '@openai/agents-core': 0 },
  },
  {
    name: 'ai6',
    toolwaves: ['planner', 'core', 'executor-rx', 'ai-sdk'],
    registry: { ai: '^6.0.0' },
    programs: ['ai-sdk-v6'],
    peers: { ai: 6 },
  },
];
const SHARED_FILES = ['turn-log.ts', 'ai-sdk-turn.ts'];

const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

const started = performance.now();
if (built) {
  console.log('== consumer check: pack each public package (built already)');
  execFileSync(process.execPath, [join(repo, 'scripts/pack-packages.mjs')], { stdio: 'inherit' });
} else {
  console.log('== consumer check: pnpm package (build, then pack each public package)');
  execFileSync('npx', ['-y', 'pnpm@10', '--silent', 'package'], { cwd: repo, stdio: 'inherit' });
}
const packed = readdirSync(tarballs);
console.log(`   packed ${packed.length} tarballs in ${seconds(started)}`);

let failed = false;
for (const project of PROJECTS) {
  const since = performance.now();
  const dir = mkdtempSync(join(tmpdir(), `toolwaves-consumer-${project.name}-`));
  console.log(`== consumer project ${project.name} (${dir})`);
  try {
    setUp(project, dir);
    // one npm cache for every project (npm's own, ~/.npm unless npm_config_cache says otherwise)
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], dir);
    for (const [name, major] of Object.entries(project.peers)) checkSingleCopy(dir, name, major);
    run(join(dir, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'], dir);
    console.log(`   tsc --noEmit (typescript ${typescript}): clean`);
    run(join(dir, 'node_modules/.bin/tsc'), ['-p', '.'], dir);
    for (const program of project.programs) {
      const said = run('node', [`out/${program}.js`], dir)
        .trimEnd()
        .split('\n');
      for (const line of said) console.log(`   ${line}`);
    }
    console.log(`   ${project.name}: passed in ${seconds(since)}`);
  } catch (error) {
    failed = true;
    console.error(`   ${project.name}: FAILED (${error instanceof Error ? error.message : error})`);
    if (error?.stdout) console.error(error.stdout);
  } finally {
    if (keep) console.log(`   kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`consumer check: ${failed ? 'FAILED' : 'passed'} in ${seconds(started)}`);
process.exitCode = failed ? 1 : 0;

/** The project's package.json, tsconfig.json and programs, as a user would write them. */
function setUp(project, dir) {
  const dependencies = { zod: '^4.0.0', inversify: '^8.0.0', ...project.registry };
  for (const name of project.toolwaves) {
    const file = packed.find((tarball) => tarball.startsWith(`toolwaves-${name}-`));
    if (file === undefined) throw new Error(`no tarball for @toolwaves/${name} in ${tarballs}`);
    dependencies[`@toolwaves/${name}`] = `file:${join(tarballs, file)}`;
  }
  const manifest = {
    name: `toolwaves-consumer-${project.name}`,
    private: true,
    type: 'module',
    dependencies,
    devDependencies: { typescript, '@types/node': '^20.0.0' },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const files = [...SHARED_FILES, ...project.programs.map((program) => `${program}.ts`)];
  for (const file of files) cpSync(join(sources, file), join(dir, 'src', file));
  const tsconfig = {
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2023'],
      types: ['node'],
      strict: true,
      skipLibCheck: true,
      outDir: 'out',
      rootDir: 'src',
    },
    files: files.map((file) => `src/${file}`),
  };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

/** Fails unless `name` is installed once in the project, at the given major (the user's copy). */
function checkSingleCopy(dir, name, major) {
  const paths = run('npm', ['ls', name, '--all', '--parseable'], dir).trim().split('\n');
  const copies = [...new Set(paths.filter((path) => path.endsWith(`node_modules/${name}`)))];
  const versions = copies.map(
    (path) => JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')).version,
  );
  const own = join(dir, 'node_modules', name);
  if (copies.length !== 1 || copies[0] !== own || Number(versions[0]?.split('.')[0]) !== major) {
    throw new Error(
      `expected one copy of ${name}@${major}.x, the project's own; found ${copies.length}: ${versions.join(', ')}`,
    );
  }
  console.log(`   npm ls ${name}: one copy, ${versions[0]} (the project's)`);
}
