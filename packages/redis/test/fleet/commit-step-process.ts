/**
 * A process that goes through the host commit step of the fs tools (`HostFence.commit`) on a
 * shared folder. Arguments: the fence folder, a counter file, a count. With a count, it adds 1
 * to the counter that many times, each a read-modify-write inside the commit step; with `hold`,
 * it takes the step, prints `holding` and keeps it until it is killed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { HostFence } from '@toolwaves/tools-fs';

const [dir = '', counter = '', what = ''] = process.argv.slice(2);
const fence = new HostFence({ dir });
const step = { keys: [], token: undefined, what: 'the counter' };

if (what === 'hold') {
  await fence.commit(step, async () => {
    process.stdout.write('holding\n');
    // a timer keeps the process alive (a pending promise alone does not)
    await new Promise(() => setInterval(() => undefined, 60_000));
  });
} else {
  for (let i = 0; i < Number(what); i += 1) {
    await fence.commit(step, async () => {
      const value = Number(await readFile(counter, 'utf8'));
      await new Promise((resolve) => setImmediate(resolve)); // widen the window
      await writeFile(counter, `${value + 1}\n`);
    });
  }
}
