/**
 * A process that holds the host commit step of one key and never gives it back (until it is
 * killed), for the fence tests. Arguments: the fence's temporary folder, the key. It prints
 * `holding` once it holds the step.
 */
import { HostFence } from '../../src/index.js';

const [tempDir = '', key = ''] = process.argv.slice(2);
const fence = HostFence.forUser({ tempDir });
await fence.commit({ keys: [key], token: undefined, what: 'the held key' }, async () => {
  process.stdout.write('holding\n');
  // a timer keeps the process alive (a pending promise alone does not)
  await new Promise(() => setInterval(() => undefined, 60_000));
});
