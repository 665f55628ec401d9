import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolCall } from '@toolwaves/core';
import { type DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { redisCoordinator } from '@toolwaves/redis';
import { demoRegistry } from './demo-registry.js';
import type { SessionWorkspace } from './sample-workspace.js';
import type { TerminalStyle } from './terminal-style.js';

const NOTES_LAST_LINE = '- TODO: document the discount rules once they move out of `legacy/`.';

/** Two scripted agents' turns on the sample project: both edit `src/price.ts` and the notes. */
function agentTurns(agent: 'ann' | 'bob', dir: string): ToolCall[][] {
  const path = (file: string) => (dir === '.' ? file : `${dir}/${file}`);
  const call = (id: string, name: string, input: Record<string, unknown>): ToolCall => ({
    id: `${agent}-${id}`,
    name,
    input,
  });
  const note = call('note', 'edit_file', {
    path: path('docs/notes.md'),
    old_string: NOTES_LAST_LINE,
    new_string: `${NOTES_LAST_LINE}\n- ${agent} was here.`,
  });
  if (agent === 'ann') {
    return [
      [call('read-price', 'read_file', { path: path('src/price.ts') })],
      [
        call('fix-rounding', 'edit_file', {
          path: path('src/price.ts'),
          old_string: 'Math.round(amount * (1 + TAX_RATE))',
          new_string: 'Math.round(amount * (1 + TAX_RATE) * 100) / 100',
        }),
        note,
      ],
      [call('check-price', 'read_file', { path: path('src/price.ts') })],
    ];
  }
  return [
    [
      call('read-price', 'read_file', { path: path('src/price.ts') }),
      call('list-src', 'list_dir', { path: path('src') }),
    ],
    [
      call('drop-todo', 'edit_file', {
        path: path('src/price.ts'),
        old_string: '// TODO: round to cents, not to whole units',
        new_string: '// Rounds to cents.',
      }),
      note,
    ],
    [call('check-notes', 'read_file', { path: path('docs/notes.md') })],
  ];
}

/**
 * `--fleet redis://…`: two scripted agents, each with its own Dispatcher and its own Redis
 * coordinator (as two processes would have), work on one workspace at the same time. Their
 * edits of the same files wait for each other fleet-wide, and both land. Exit code 1 when a call
 * failed (Redis unreachable, say) or an edit is missing.
 */
export async function runFleetDemo(context: {
  url: string;
  latency: number;
  workspace: SessionWorkspace;
  say: (line: string) => void;
  style: TerminalStyle;
}): Promise<number> {
  const { url, latency, workspace, say, style } = context;
  const namespace = `toolwaves-demo-${randomUUID()}`;
  say(
    `${style.bold('toolwaves demo')}${style.dim(` · two agents, one workspace, fleet locks on ${url}`)}`,
  );
  say(style.dim(`workspace: ${workspace.root}${workspace.dir === '.' ? '' : `/${workspace.dir}`}`));
  const agents = (['ann', 'bob'] as const).map((agent) => ({
    agent,
    coordinator: redisCoordinator({ url, namespace, leaseMs: 5000 }),
  }));
  let failed = 0;
  try {
    await Promise.all(
      agents.map(async ({ agent, coordinator }) => {
        const dispatcher = new Dispatcher({
          registry: demoRegistry({ root: workspace.root, latency }),
          mode: 'parallel',
          coordinator,
        });
        const onEvent = (event: DispatchEvent): void => {
          if (event.type === 'call-start' && event.fleetWaitMs >= 1) {
            say(
              style.dim(
                `[${agent}] ${event.toolCallId} waited ${Math.round(event.fleetWaitMs)} ms for the fleet`,
              ),
            );
          }
          if (event.type === 'call-end') {
            say(`[${agent}] ${event.toolCallId} ${event.isError ? style.red('failed') : 'done'}`);
          }
        };
        for (const turn of agentTurns(agent, workspace.dir)) {
          const results = await dispatcher.dispatch(turn, { onEvent });
          for (const result of results.filter((r) => r.isError)) {
            failed += 1;
            say(style.red(`[${agent}] ${result.toolCallId}: ${String(result.content)}`));
          }
        }
      }),
    );
  } finally {
    await Promise.all(agents.map(({ coordinator }) => coordinator.close()));
  }
  const root = join(workspace.root, workspace.dir);
  const price = await readFile(join(root, 'src/price.ts'), 'utf8');
  const notes = await readFile(join(root, 'docs/notes.md'), 'utf8');
  const landed = [
    price.includes('* 100) / 100'),
    price.includes('// Rounds to cents.'),
    notes.includes('- ann was here.'),
    notes.includes('- bob was here.'),
  ];
  if (failed > 0 || landed.includes(false)) {
    say(style.red(`${failed} call(s) failed; edits landed: ${landed.filter(Boolean).length} of 4`));
    return 1;
  }
  say(style.bold('both agents’ edits landed (4 of 4): no update lost'));
  return 0;
}
