import type { ToolCall } from '@toolwaves/core';
import type { SeededRandom } from './seeded-random.js';
import { TOOL_LATENCY } from './tool-latency.js';
import type { BatchRequest, Workload, WorkloadBatch } from './workload.js';
import { EDIT_MARKERS, editMarker, sourcesIn } from './workspace-layout.js';

/** Collects a batch's calls (`call_0`, …), each with a duration drawn from its tool's model. */
function batchBuilder(random: SeededRandom) {
  const calls: ToolCall[] = [];
  const durationsMs: number[] = [];
  const edits = new Map<string, number>();
  const add = (name: string, input: unknown): void => {
    const latency = TOOL_LATENCY[name];
    if (latency === undefined) throw new RangeError(`No latency model for tool \`${name}\``);
    calls.push({ id: `call_${calls.length}`, name, input });
    durationsMs.push(random.duration(latency));
  };
  return {
    batch: { calls, durationsMs } satisfies WorkloadBatch,
    add,
    get size() {
      return calls.length;
    },
    /** An `edit_file` at the file's next unused marker, else a `read_file`. */
    editOrRead(path: string): void {
      const used = edits.get(path) ?? 0;
      edits.set(path, used + 1);
      if (used >= EDIT_MARKERS) add('read_file', { path });
      else add('edit_file', { path, ...editMarker(used) });
    },
  };
}

function toolWorkload(
  name: string,
  description: string,
  fill: (builder: ReturnType<typeof batchBuilder>, request: BatchRequest) => void,
  simulatedOnly?: true,
): Workload {
  return {
    name,
    description,
    ...(simulatedOnly === undefined ? {} : { simulatedOnly }),
    batch(request) {
      const builder = batchBuilder(request.random);
      fill(builder, request);
      return builder.batch;
    },
  };
}

const PATTERNS = ['TODO', 'export function', 'import ', 'shared\\(', 'value1\\b'];
const NEW_FILE = 'export const added = true;\n';

/** Reads, greps, globs, list_dir, stat, mostly in one or two folders. */
export const exploreWorkload = (): Workload =>
  toolWorkload(
    'explore',
    'Exploring agent: reads, greps, globs, list_dir and stat, no writes.',
    (builder, { random, size, layout }) => {
      const focus = [random.pick(layout.modules), random.pick(layout.modules)];
      const read: string[] = [];
      const file = (): string => {
        if (read.length > 0 && random.chance(1 / 7)) return random.pick(read);
        if (random.chance(0.7)) return random.pick(sourcesIn(layout, random.pick(focus)));
        return random.pick([...layout.sourceFiles, ...layout.docs]);
      };
      while (builder.size < size) {
        const kind = random.weighted({ read: 50, grep: 20, glob: 10, list: 10, stat: 10 });
        if (kind === 'read') {
          const path = file();
          read.push(path);
          builder.add('read_file', { path });
        } else if (kind === 'grep') {
          const pattern = random.pick(PATTERNS);
          builder.add(
            'grep',
            random.chance(0.5) ? { pattern, path: random.pick(focus) } : { pattern },
          );
        } else if (kind === 'glob') {
          builder.add(
            'glob',
            random.chance(0.5) ? { pattern: `${random.pick(focus)}/*.ts` } : { pattern: '**/*.md' },
          );
        } else if (kind === 'list') builder.add('list_dir', { path: random.pick(focus) });
        else builder.add('stat', { path: file() });
      }
    },
  );

/** A grep, reads, then edits skewed to the first files read, new files, a `run_check`. */
export const refactorWorkload = (): Workload =>
  toolWorkload(
    'refactor',
    'Refactoring agent: reads, then edits across those files (several per file).',
    (builder, { random, size, layout }) => {
      const modules = [random.pick(layout.modules), random.pick(layout.modules)];
      const candidates = sourcesIn(layout, ...modules);
      const check = size >= 8 && random.chance(1 / 3);
      const budget = size - (check ? 1 : 0);
      if (budget >= 6) builder.add('grep', { pattern: 'shared\\(', path: 'src' });
      const readCount = Math.max(1, Math.round(budget * 0.35));
      const files: string[] = [];
      while (builder.size < budget && files.length < readCount) {
        const path = random.pick(candidates);
        if (!files.includes(path)) files.push(path);
        builder.add('read_file', { path });
      }
      let created = 0;
      while (builder.size < budget) {
        if (random.chance(0.1)) {
          const module = random.pick(modules);
          builder.add('write_file', { path: `${module}/new${created++}.ts`, content: NEW_FILE });
        } else {
          // Skewed towards the first files read: a square of a uniform.
          builder.editOrRead(files[Math.floor(random.next() ** 2 * files.length)]!);
        }
      }
      if (check) builder.add('run_check', { path: 'src' });
    },
  );

/**
 * A bit of everything in random order, reads and edits often on the same files, 5 % `run_check`.
 */
export const mixedTurnWorkload = (): Workload =>
  toolWorkload(
    'mixed',
    'Mixed turn: reads, edits, greps, writes, a few checks, moves and deletes.',
    (builder, { random, size, layout }) => {
      const modules = [random.pick(layout.modules), random.pick(layout.modules)];
      const pool = sourcesIn(layout, ...modules);
      const scratch = [...layout.scratchFiles];
      let created = 0;
      while (builder.size < size) {
        const kind = random.weighted({
          read: 35,
          edit: 20,
          grep: 15,
          write: 7,
          glob: 5,
          list: 5,
          stat: 5,
          check: 5,
          move: 1.5,
          delete: 1.5,
        });
        const path = random.pick(pool);
        if (kind === 'read') builder.add('read_file', { path });
        else if (kind === 'edit') builder.editOrRead(path);
        else if (kind === 'grep') builder.add('grep', { pattern: 'TODO', path: modules[0]! });
        else if (kind === 'write')
          builder.add('write_file', {
            path: `${modules[1]!}/new${created++}.ts`,
            content: NEW_FILE,
          });
        else if (kind === 'glob') builder.add('glob', { pattern: `${modules[1]!}/*.ts` });
        else if (kind === 'list') builder.add('list_dir', { path: modules[0]! });
        else if (kind === 'stat') builder.add('stat', { path });
        else if (kind === 'check') builder.add('run_check', { path: 'src' });
        else if (scratch.length === 0) builder.add('read_file', { path });
        else {
          const from = scratch.splice(random.int(scratch.length), 1)[0]!;
          if (kind === 'move')
            builder.add('move_file', { from, to: from.replace('scratch', 'moved') });
          else builder.add('delete_file', { path: from });
        }
      }
    },
  );

/** Many calls on one file (60 % reads, 25 % edits, greps of its folder, stats): long chains. */
export const hotFileWorkload = (): Workload =>
  toolWorkload(
    'hot-file',
    'Hot file: reads, edits, greps and stats of one file, interleaved.',
    (builder, { random, size, layout }) => {
      const path = random.pick(layout.sourceFiles);
      const folder = path.slice(0, path.lastIndexOf('/'));
      while (builder.size < size) {
        const kind = random.weighted({ read: 60, edit: 25, grep: 10, stat: 5 });
        if (kind === 'edit') builder.editOrRead(path);
        else if (kind === 'grep') builder.add('grep', { pattern: 'value', path: folder });
        else if (kind === 'stat') builder.add('stat', { path });
        else builder.add('read_file', { path });
      }
    },
  );

/** 35 % `run_check` (runs alone) between reads, edits, greps and stats of one folder. */
export const barrierHeavyWorkload = (): Workload =>
  toolWorkload(
    'barriers',
    'Barrier-heavy: a third of the calls are run_check, which runs alone.',
    (builder, { random, size, layout }) => {
      const module = random.pick(layout.modules);
      const pool = sourcesIn(layout, module);
      while (builder.size < size) {
        const kind = random.weighted({ check: 35, read: 35, edit: 15, grep: 10, stat: 5 });
        const path = random.pick(pool);
        if (kind === 'check') builder.add('run_check', { path: module });
        else if (kind === 'edit') builder.editOrRead(path);
        else if (kind === 'grep') builder.add('grep', { pattern: 'TODO', path: module });
        else if (kind === 'stat') builder.add('stat', { path });
        else builder.add('read_file', { path });
      }
    },
  );

const SERVERS = ['github', 'linear', 'docs'];

/** Network MCP calls, sub-agents, test runs, a few reads and edits; simulated only. */
export const remoteToolsWorkload = (): Workload =>
  toolWorkload(
    'remote',
    'Remote tools: MCP servers over the network, sub-agents and test runs, a few local edits.',
    (builder, { random, size, layout }) => {
      while (builder.size < size) {
        const kind = random.weighted({
          fetch: 35,
          update: 10,
          agent: 10,
          tests: 10,
          read: 20,
          edit: 15,
        });
        const module = random.pick(layout.modules);
        const path = random.pick(sourcesIn(layout, module));
        const item = `${random.pick(['issue', 'pr', 'page'])}-${Math.floor(random.next() * 6)}`;
        if (kind === 'fetch' || kind === 'update')
          builder.add(`remote_${kind}`, { server: random.pick(SERVERS), item });
        else if (kind === 'agent') builder.add('sub_agent', { path: module });
        else if (kind === 'tests') builder.add('run_tests', { path: module });
        else if (kind === 'edit') builder.editOrRead(path);
        else builder.add('read_file', { path });
      }
    },
    true,
  );
