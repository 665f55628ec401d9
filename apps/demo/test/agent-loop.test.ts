import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dispatcher } from '@toolwaves/executor-rx';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentLoop, type SessionRecord } from '../src/agent-loop.js';
import { PLANNER_NAMES, type PlannerName } from '../src/cli-options.js';
import { demoRegistry } from '../src/demo-registry.js';
import { plannerByName } from '../src/planner-by-name.js';
import { prepareWorkspace, type SessionWorkspace } from '../src/sample-workspace.js';
import { ScriptedModel } from '../src/scripted-model.js';
import { scriptedSession } from '../src/scripted-session.js';

const cleanup: string[] = [];
afterEach(async () => {
  for (const dir of cleanup.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function play(options: {
  workspace: SessionWorkspace;
  planner: PlannerName;
}): Promise<SessionRecord> {
  const dispatcher = new Dispatcher({
    registry: demoRegistry({ root: options.workspace.root, latency: 0 }),
    mode: 'parallel',
    planner: plannerByName(options.planner),
  });
  return runAgentLoop({
    model: new ScriptedModel({
      turns: scriptedSession(options.workspace.dir),
      tokensPerSecond: Number.POSITIVE_INFINITY,
    }),
    dispatcher,
  });
}

async function finalState(folder: string): Promise<Record<string, string>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    files[path.slice(folder.length + 1)] = await readFile(path, 'utf8');
  }
  return files;
}

describe('the demo session, driven by the scripted model', () => {
  it('answers every call, in order, and leaves the workspace as the session intends', async () => {
    const workspace = await prepareWorkspace({});
    cleanup.push(workspace.root);
    const session = await play({ workspace, planner: 'greedy' });

    expect(session.turns).toHaveLength(5);
    expect(session.finalText).toMatch(/^Done/);
    for (const turn of session.turns) {
      expect(turn.results.map((r) => r.toolCallId)).toEqual(turn.calls.map((c) => c.id));
      expect(turn.results.filter((r) => r.isError)).toEqual([]);
    }
    const files = await finalState(workspace.root);
    // two edits of one file in one turn both landed
    expect(files['src/price.ts']).toContain('Math.round(amount * (1 + TAX_RATE) * 100) / 100');
    expect(files['src/price.ts']).toContain('/** Adds tax, rounded to cents. */');
    expect(files['src/price.ts']).not.toContain('TODO');
    expect(files['src/index.ts']).toContain("export { discounted } from './discount.js';");
    expect(files['src/discount.ts']).toContain('export function discounted');
    expect(files['src/legacy/old-discount.ts']).toBeUndefined();
    expect(files['docs/old-discount.ts.txt']).toContain('oldDiscount');
    expect(files['docs/notes.md']).toContain('Discounts live in `src/discount.ts`');
    // a read after a write in the same turn sees the write
    const editTurn = session.turns[2];
    expect(editTurn?.results[3]?.content).toContain('export function discounted');
    expect(editTurn?.results[4]?.content).toContain('rounded to cents');
    // the final check passes
    expect(session.turns[4]?.results[0]?.content).toMatch(/^check passed: 9 files/);
  });

  it('ends in the same state under every planner', async () => {
    const states: Record<string, Record<string, string>> = {};
    for (const planner of PLANNER_NAMES) {
      const workspace = await prepareWorkspace({});
      cleanup.push(workspace.root);
      const session = await play({ workspace, planner });
      expect(session.turns.flatMap((turn) => turn.results).filter((r) => r.isError)).toEqual([]);
      states[planner] = await finalState(workspace.root);
    }
    expect(states.ordered).toEqual(states.sequential);
    expect(states.greedy).toEqual(states.sequential);
    expect(states.optimal).toEqual(states.sequential);
  });

  it('with --workspace, only touches the folder it created', async () => {
    const root = await mkdtemp(join(tmpdir(), 'toolwaves-user-'));
    cleanup.push(root);
    await writeFile(join(root, 'keep.txt'), 'user data\n');
    const workspace = await prepareWorkspace({ workspace: root });
    expect(workspace.dir).toMatch(/^toolwaves-demo-/);
    const session = await play({ workspace, planner: 'greedy' });
    expect(session.turns.flatMap((turn) => turn.results).filter((r) => r.isError)).toEqual([]);
    expect((await readdir(root)).sort()).toEqual([workspace.dir, 'keep.txt'].sort());
    expect(await readFile(join(root, 'keep.txt'), 'utf8')).toBe('user data\n');
    expect(await readFile(join(root, workspace.dir, 'src/discount.ts'), 'utf8')).toContain(
      'discounted',
    );
  });

  it('refuses a --workspace that is not a folder, naming it', async () => {
    await expect(prepareWorkspace({ workspace: '/nonexistent/place' })).rejects.toThrow(
      'Expected `--workspace` to be an existing folder, got `/nonexistent/place`',
    );
  });
});
