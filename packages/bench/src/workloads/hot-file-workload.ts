import { BatchBuilder } from './batch-builder.js';
import { FileEdits } from './file-edits.js';
import type { ToolWorkload } from './workload.js';

/**
 * Many calls on one file: 60 % `read_file` of it, 25 % `edit_file` of it, 10 % `grep` of its
 * folder, 5 % `stat` of it. Every edit conflicts with every other call of the turn, so plans
 * are long chains; how reads are packed between the edits is where planners differ.
 *
 * @see barrierHeavyWorkload
 */
export function hotFileWorkload(): ToolWorkload {
  return {
    kind: 'tools',
    name: 'hot-file',
    description: 'Hot file: reads, edits, greps and stats of one file, interleaved.',
    batch({ random, size, layout }) {
      const builder = new BatchBuilder(random);
      const edits = new FileEdits();
      const path = random.pick(layout.sourceFiles);
      const folder = path.slice(0, path.lastIndexOf('/'));
      while (builder.size < size) {
        const kind = random.weighted({ read: 60, edit: 25, grep: 10, stat: 5 });
        const edit = kind === 'edit' ? edits.next(path) : undefined;
        if (edit !== undefined) builder.add('edit_file', edit);
        else if (kind === 'grep') builder.add('grep', { pattern: 'value', path: folder });
        else if (kind === 'stat') builder.add('stat', { path });
        else builder.add('read_file', { path });
      }
      return builder.build();
    },
  };
}
