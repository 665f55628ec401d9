import { BatchBuilder } from './batch-builder.js';
import { FileEdits } from './file-edits.js';
import type { ToolWorkload } from './workload.js';

/**
 * A turn that does a bit of everything, in random order: reads (35 %), edits (20 %), `grep`
 * (15 %), writes of new files (7 %), `glob`, `list_dir`, `stat` (5 % each), `run_check` (5 %,
 * not concurrency-safe), moves and deletes of scratch files (1.5 % each). Reads and edits often
 * hit the same files, and a `grep` of a folder conflicts with edits under it.
 *
 * @see exploreWorkload
 */
export function mixedTurnWorkload(): ToolWorkload {
  return {
    kind: 'tools',
    name: 'mixed',
    description: 'Mixed turn: reads, edits, greps, writes, a few checks, moves and deletes.',
    batch({ random, size, layout }) {
      const builder = new BatchBuilder(random);
      const edits = new FileEdits();
      const modules = [random.pick(layout.modules), random.pick(layout.modules)];
      const pool = layout.sourceFiles.filter((path) =>
        modules.some((module) => path.startsWith(`${module}/`)),
      );
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
        else if (kind === 'edit') {
          const edit = edits.next(path);
          builder.add(edit === undefined ? 'read_file' : 'edit_file', edit ?? { path });
        } else if (kind === 'grep') builder.add('grep', { pattern: 'TODO', path: modules[0]! });
        else if (kind === 'write') {
          builder.add('write_file', {
            path: `${modules[1]!}/new${created++}.ts`,
            content: 'export const added = true;\n',
          });
        } else if (kind === 'glob') builder.add('glob', { pattern: `${modules[1]!}/*.ts` });
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
      return builder.build();
    },
  };
}
