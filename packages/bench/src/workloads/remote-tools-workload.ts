import { BatchBuilder } from './batch-builder.js';
import { FileEdits } from './file-edits.js';
import type { ToolWorkload } from './workload.js';

const SERVERS = ['github', 'linear', 'docs'];

/**
 * Remote tools: calls to network MCP servers (100 ms – 3 s), sub-agents (10 – 60 s) and test
 * runs (5 – 60 s) beside a few local reads and edits. Durations spread over two orders of
 * magnitude, so a wave held for its slowest call, and calls that wait for the end of the
 * stream, cost the most here.
 *
 * @see remoteTools
 */
export function remoteToolsWorkload(): ToolWorkload {
  return {
    kind: 'tools',
    name: 'remote',
    simulatedOnly: true,
    description:
      'Remote tools: MCP servers over the network, sub-agents and test runs, a few local edits.',
    batch({ random, size, layout }) {
      const builder = new BatchBuilder(random);
      const edits = new FileEdits();
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
        const path = random.pick(
          layout.sourceFiles.filter((file) => file.startsWith(`${module}/`)),
        );
        const item = `${random.pick(['issue', 'pr', 'page'])}-${Math.floor(random.next() * 6)}`;
        const edit = kind === 'edit' ? edits.next(path) : undefined;
        if (kind === 'fetch' || kind === 'update')
          builder.add(`remote_${kind}`, { server: random.pick(SERVERS), item });
        else if (kind === 'agent') builder.add('sub_agent', { path: module });
        else if (kind === 'tests') builder.add('run_tests', { path: module });
        else if (edit !== undefined) builder.add('edit_file', edit);
        else builder.add('read_file', { path });
      }
      return builder.build();
    },
  };
}
