import { BatchBuilder } from './batch-builder.js';
import { FileEdits } from './file-edits.js';
import type { ToolWorkload } from './workload.js';

/**
 * A turn full of calls that are not concurrency-safe: 35 % `run_check` (a shell command, which
 * runs alone), between reads (35 %), edits (15 %), `grep` (10 %) and `stat` (5 %). Greedy
 * lets safe calls cross the barriers into earlier waves; `ordered` keeps them between.
 *
 * @see mixedTurnWorkload
 */
export function barrierHeavyWorkload(): ToolWorkload {
  return {
    kind: 'tools',
    name: 'barriers',
    description: 'Barrier-heavy: a third of the calls are run_check, which runs alone.',
    batch({ random, size, layout }) {
      const builder = new BatchBuilder(random);
      const edits = new FileEdits();
      const module = random.pick(layout.modules);
      const pool = layout.sourceFiles.filter((path) => path.startsWith(`${module}/`));
      while (builder.size < size) {
        const kind = random.weighted({ check: 35, read: 35, edit: 15, grep: 10, stat: 5 });
        const path = random.pick(pool);
        const edit = kind === 'edit' ? edits.next(path) : undefined;
        if (kind === 'check') builder.add('run_check', { path: module });
        else if (edit !== undefined) builder.add('edit_file', edit);
        else if (kind === 'grep') builder.add('grep', { pattern: 'TODO', path: module });
        else if (kind === 'stat') builder.add('stat', { path });
        else builder.add('read_file', { path });
      }
      return builder.build();
    },
  };
}
