import { BatchBuilder } from './batch-builder.js';
import type { ToolWorkload } from './workload.js';

const PATTERNS = ['TODO', 'export function', 'import ', 'shared\\(', 'value1\\b'];

/**
 * An agent finding its way around: mostly `read_file`, with `grep`, `glob`, `list_dir` and
 * `stat`; 70 % of the files it touches are in one or two folders it focuses on, and one read in
 * seven reads a file it already read in the turn. Only reads: every planner can put the whole
 * turn in one wave, so the cap (`maxConcurrency`) and the durations decide the makespan.
 *
 * @see refactorWorkload
 */
export function exploreWorkload(): ToolWorkload {
  return {
    kind: 'tools',
    name: 'explore',
    description: 'Exploring agent: reads, greps, globs, list_dir and stat, no writes.',
    batch({ random, size, layout }) {
      const builder = new BatchBuilder(random);
      const focus = [random.pick(layout.modules), random.pick(layout.modules)];
      const read: string[] = [];
      const file = (): string => {
        if (read.length > 0 && random.chance(1 / 7)) return random.pick(read);
        if (random.chance(0.7)) {
          const module = random.pick(focus);
          const inFocus = layout.sourceFiles.filter((path) => path.startsWith(`${module}/`));
          return random.pick(inFocus);
        }
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
        } else if (kind === 'list') {
          builder.add('list_dir', { path: random.pick(focus) });
        } else {
          builder.add('stat', { path: file() });
        }
      }
      return builder.build();
    },
  };
}
