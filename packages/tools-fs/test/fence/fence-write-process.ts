/**
 * A process that runs one `write_file` (with a fencing token) on a workspace whose fence lives in
 * the given temporary folder, and prints its answer as JSON: for the tests of a read-only or
 * full temporary folder, run in a mount namespace of its own. Arguments: the temporary folder,
 * the workspace root.
 */
import { Container } from 'inversify';
import { fsToolsModule, WriteFileTool } from '../../src/index.js';

const [fenceTempDir = '', root = ''] = process.argv.slice(2);
const container = new Container();
container.load(fsToolsModule({ root, fenceTempDir }));
const answer = await container
  .get(WriteFileTool)
  .execute(
    { path: 'a.txt', content: 'new\n' },
    { toolCallId: 'w', signal: new AbortController().signal, attempt: 1, fencingToken: 7 },
  );
process.stdout.write(`${JSON.stringify(answer)}\n`);
