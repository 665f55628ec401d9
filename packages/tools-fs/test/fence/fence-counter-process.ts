/**
 * A process that adds 1 to a counter file `count` times, each a read-modify-write inside the
 * host commit step of one key, for the fence tests. Arguments: the fence's temporary folder, the
 * key, the counter file, the count, and `stay` to stay alive (idle) once done. Prints `done`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { HostFence } from '../../src/index.js';

const [tempDir = '', key = '', counter = '', count = '0', stay = ''] = process.argv.slice(2);
const fence = HostFence.forUser({ tempDir, maxWaitMs: 60_000 });
for (let i = 0; i < Number(count); i += 1) {
  await fence.commit({ keys: [key], token: undefined, what: 'the counter' }, async () => {
    const value = Number(await readFile(counter, 'utf8'));
    await new Promise((resolve) => setImmediate(resolve)); // widen the window
    await writeFile(counter, `${value + 1}\n`);
  });
}
process.stdout.write('done\n');
if (stay === 'stay') setInterval(() => undefined, 60_000);
