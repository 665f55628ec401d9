import { BatchBuilder } from './batch-builder.js';
import { FileEdits } from './file-edits.js';
import type { ToolWorkload } from './workload.js';

/**
 * An agent carrying out a change: a `grep` for the symbol (from 6 calls), reads of the files it
 * will touch (about a third of the turn, in one or two folders), then `edit_file` calls across
 * those files — skewed, so the first files get several edits and edits of one file must
 * serialize —, a new file now and then (`write_file`), and in one turn in three (from 8 calls)
 * a closing `run_check`.
 *
 * @see mixedTurnWorkload
 */
export function refactorWorkload(): ToolWorkload {
  return {
    kind: 'tools',
    name: 'refactor',
    description: 'Refactoring agent: reads, then edits across those files (several per file).',
    batch({ random, size, layout }) {
      const builder = new BatchBuilder(random);
      const edits = new FileEdits();
      const modules = [random.pick(layout.modules), random.pick(layout.modules)];
      const candidates = layout.sourceFiles.filter((path) =>
        modules.some((module) => path.startsWith(`${module}/`)),
      );
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
          builder.add('write_file', {
            path: `${module}/new${created++}.ts`,
            content: 'export const added = true;\n',
          });
          continue;
        }
        // Skewed towards the first files read: a square root of a uniform.
        const path = files[Math.floor(random.next() ** 2 * files.length)]!;
        const edit = edits.next(path);
        if (edit === undefined) builder.add('read_file', { path });
        else builder.add('edit_file', edit);
      }
      if (check) builder.add('run_check', { path: 'src' });
      return builder.build();
    },
  };
}
