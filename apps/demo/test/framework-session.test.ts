import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Dispatcher } from '@toolwaves/executor-rx';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseCliOptions } from '../src/cli-options.js';
import { DemoError } from '../src/demo-error.js';
import { demoRegistry } from '../src/demo-registry.js';
import { compareFrameworkSchedules } from '../src/framework-comparison.js';
import { FRAMEWORK_NAMES, runFrameworkSession } from '../src/framework-session.js';
import { frameworkCallLabels } from '../src/framework-session-options.js';
import { FrameworkView } from '../src/framework-view.js';
import { prepareWorkspace } from '../src/sample-workspace.js';
import { SCRIPTED_FINAL_TEXT } from '../src/scripted-model.js';
import { scriptedSession } from '../src/scripted-session.js';
import { terminalStyle } from '../src/terminal-style.js';

describe('the scripted session in each framework’s own loop (--framework)', () => {
  for (const framework of FRAMEWORK_NAMES) {
    it(`${framework}: runs every scripted call once, in the script's dependencies, and lands its edits`, async () => {
      const workspace = await prepareWorkspace({});
      onTestFinished(() => rm(workspace.root, { recursive: true, force: true }));
      const registry = demoRegistry({ root: workspace.root, latency: 0 });
      const turns = scriptedSession(workspace.dir);
      const lines: string[] = [];
      const view = new FrameworkView({
        write: (line) => lines.push(line),
        style: terminalStyle({ stream: {}, env: { NO_COLOR: '1' } }),
        labels: frameworkCallLabels(turns),
      });
      const dispatcher = new Dispatcher({
        registry,
        mode: 'eager',
        instrumentation: view.instrumentation,
      });
      const asked: number[] = [];

      const finalText = await runFrameworkSession(framework, {
        registry,
        dispatcher,
        turns,
        signal: new AbortController().signal,
        onTurn: (turn, _text, calls) => asked.push(turn * 100 + calls),
      });

      expect(finalText).toBe(SCRIPTED_FINAL_TEXT);
      expect(asked).toEqual(turns.map((turn, t) => (t + 1) * 100 + turn.calls.length));
      const calls = turns.flatMap((turn) => turn.calls).length;
      expect(view.calls).toHaveLength(calls);
      expect(view.calls.filter((call) => call.outcome !== 'ok')).toEqual([]);
      // one numbering, as in the other modes: call i of turn t (both from 1) is #t.i, in the
      // report and in every line of the view, whatever id the framework knows it by
      const numbering = turns.flatMap((turn, t) => turn.calls.map((_, i) => `#${t + 1}.${i + 1}`));
      expect(view.calls.map((call) => call.call).sort()).toEqual([...numbering].sort());
      const callLines = lines.filter((line) => /^ {4}[▶✓✗] /.test(line));
      expect(callLines).toHaveLength(2 * calls);
      for (const line of callLines) expect(line).toMatch(/^ {4}[▶✓✗] #\d+\.\d+ \w+\(/);
      const waited = (name: string) => view.calls.find((call) => call.call === name)?.waitedFor;
      // turn 3: the second edit of src/price.ts waits for the first; the read of it for the
      // second (and so, through it, for the first)
      expect(waited('#3.2')).toEqual(['#3.1']);
      expect(waited('#3.5')).toContain('#3.2');
      expect(lines.find((line) => line.startsWith('    ▶ #3.2 '))).toMatch(/ after #3\.1$/);
      const price = await readFile(join(workspace.root, 'src/price.ts'), 'utf8');
      expect(price).toContain('* 100) / 100;');
      expect(price).toContain('/** Adds tax, rounded to cents. */');
    });
  }

  it('compares the framework alone, one call at a time and toolwaves, in fresh workspaces', async () => {
    const rows = await compareFrameworkSchedules({
      framework: 'ai-sdk',
      maxConcurrency: 8,
      latency: 0,
      signal: new AbortController().signal,
    });
    expect(rows.map((row) => [row.strategy, row.maxConcurrency])).toEqual([
      ['the framework alone', Number.POSITIVE_INFINITY],
      ['one call at a time', 1],
      ['toolwaves (eager)', 8],
    ]);
    // scheduled calls never collide: every tool answers, both edits of price.ts land
    for (const row of rows.slice(1)) expect([row.errors, row.editsLanded]).toEqual([0, true]);
  });

  it('reads --framework, and names the flag and the value when it is unknown', () => {
    expect(parseCliOptions(['--framework', 'ai-sdk']).framework).toBe('ai-sdk');
    expect(parseCliOptions([]).framework).toBeUndefined();
    expect(() => parseCliOptions(['--framework', 'crewai'])).toThrow(
      new DemoError({
        code: 'invalid_flag',
        message:
          'Expected `--framework` to be one of langchain, openai-agents, ai-sdk, got `"crewai"` (string)',
      }),
    );
  });
});
