import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BenchError,
  loadTraceMappings,
  renderJson,
  renderTraceHtml,
  renderTraceMarkdown,
} from '../src/index.js';
import { readTrace } from '../src/trace/read-trace.js';
import { replayTrace, type TraceReport } from '../src/trace/replay-trace.js';
import { declareCall } from '../src/trace/trace-declarations.js';
import { generateClaudeCodeTrace } from './fixtures/generate-claude-code-trace.js';

const fixture = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Every duration at its kind's median: figures a reader can add up by hand. */
const AT_MEDIANS = {
  read: { medianMs: 40, sigma: 0 },
  write: { medianMs: 70, sigma: 0 },
  shell: { medianMs: 1500, sigma: 0 },
  other: { medianMs: 300, sigma: 0 },
};

const byStrategy = (
  report: Pick<TraceReport, 'strategies'>,
  field: 'makespanMs' | 'afterStreamMs' | 'conflictingOverlaps',
) => Object.fromEntries(report.strategies.map((row) => [row.strategy, row[field]]));

describe('a Claude Code stream-json transcript', async () => {
  // Turns: A (Read src/a.ts 40 ms, Grep src 150 ms as reported, Bash `npm test` 500 ms),
  // B (Edit src/a.ts 70 ms failing, Read src/a.ts 30 ms, Task 2000 ms as reported),
  // S, the sub-agent's turn (Read 30 ms, Glob 90 ms), C (TodoWrite 5 ms); a cut last line.
  const trace = readTrace(await fixture('claude-code.jsonl'));
  const report = replayTrace({ trace, file: 'claude-code.jsonl' });

  it('reads the turns by message id, the sub-agent turn apart, errors and durations', () => {
    expect(trace.format).toBe('claude-code');
    expect(trace.cwd).toBe('/repo');
    expect(trace.turns.map((turn) => turn.calls.map((call) => call.name))).toEqual([
      ['Read', 'Grep', 'Bash'],
      ['Edit', 'Read', 'Task'],
      ['Read', 'Glob'],
      ['TodoWrite'],
    ]);
    expect(trace.turns[2]).toMatchObject({
      parentCallId: 'toolu_B3',
      model: 'claude-haiku-4-5-20251001',
    });
    expect(trace.turns.flatMap((turn) => turn.calls.map((call) => call.durationMs))).toEqual([
      40, 150, 500, 70, 30, 2000, 30, 90, 5,
    ]);
    expect(trace.turns[1]!.calls.map((call) => call.isError)).toEqual([true, false, false]);
    expect(trace.skipped).toHaveLength(1);
    expect(trace.skipped[0]).toMatch(/^line 23: not JSON/);
  });

  it('counts turns, calls, multi-call turns and conflicting pairs, per model too', () => {
    // A: `npm test` conflicts with both reads (2); B: the edit and the read of src/a.ts (1).
    expect(report.trace).toMatchObject({
      format: 'claude-code',
      turns: 4,
      calls: 9,
      multiCallTurns: 3,
      conflictingPairs: 3,
      errors: 1,
      durationsFromTrace: 9,
      durationsFromModel: 0,
      unknownTools: {},
      // `npm test` is the one shell call, and not read-only.
      shellCalls: 1,
      shellReadOnly: 0,
    });
    expect(
      report.models.map(({ model, turns, calls, multiCallTurns, conflictingPairs }) => [
        model,
        turns,
        calls,
        multiCallTurns,
        conflictingPairs,
      ]),
    ).toEqual([
      ['claude-sonnet-4-5-20250929', 3, 7, 2, 3],
      ['claude-haiku-4-5-20251001', 1, 2, 1, 0],
    ]);
  });

  it('gives every strategy its figures, derived by hand', () => {
    // Batch, per turn A + B + S + C:
    // greedy/ordered/optimal: [[R,G],[npm test]] 150+500, [[Edit,Task],[Read]] 2000+30, 90, 5.
    // sequential: 690 + 2100 + 120 + 5. eager: 650 + 2000 (the read waits 70 ms beside the Task) + 90 + 5.
    // all-at-once: 500 + 2000 + 90 + 5. Claude Code and Codex: the edit alone first in B: 70 + 2000.
    expect(byStrategy(report, 'makespanMs')).toEqual({
      greedy: 2775,
      ordered: 2775,
      sequential: 2915,
      optimal: 2775,
      'optimal-clairvoyant': 2775,
      eager: 2745,
      'all-at-once': 2595,
      'wait-then-all-at-once': 2595,
      'consecutive-read-only': 2815,
      'global-rw-lock': 2815,
      'global-rw-lock-capped': 2815,
    });
    // Streamed: each call is written 150 ms or more after the one before (12 tokens at 80/s
    // and more), so reads have ended before the next call arrives. After the stream: waves
    // wait for it and take their batch time; eager starts `npm test`, the Task and the last
    // Glob on arrival: 500 + 2000 + 90 + 5; Claude Code holds the edit (and so the Task) and
    // TodoWrite to the end of the stream: 500 + 2070 + 90 + 5.
    expect(byStrategy(report, 'afterStreamMs')).toEqual({
      greedy: 2775,
      ordered: 2775,
      sequential: 2915,
      optimal: 2775,
      'optimal-clairvoyant': 2775,
      eager: 2595,
      'all-at-once': 2595,
      'wait-then-all-at-once': 2595,
      'consecutive-read-only': 2665,
      'global-rw-lock': 2595,
      'global-rw-lock-capped': 2595,
    });
    // all-at-once in a batch: `npm test` beside both reads (2), the edit beside the read (1).
    expect(byStrategy(report, 'conflictingOverlaps')).toMatchObject({
      greedy: 0,
      eager: 0,
      'all-at-once': 3,
      'wait-then-all-at-once': 6,
      'consecutive-read-only': 0,
    });
    const eager = report.strategies.find((row) => row.strategy === 'eager')!;
    expect(eager.versusGreedy).toBeCloseTo(2745 / 2775, 12);
    expect(eager.afterStreamVersusGreedy).toBeCloseTo(2595 / 2775, 12);
    const sonnet = report.models[0]!.strategies.find((row) => row.strategy === 'greedy')!;
    expect(sonnet.makespanMs).toBe(650 + 2030 + 5);
  });
});

describe.each([
  ['openai-chat.jsonl', 'openai-chat', 0, 'line 8', []],
  ['anthropic-messages.jsonl', 'anthropic-messages', 1, 'line 5', []],
  ['ai-sdk-steps.jsonl', 'ai-sdk-steps', 1, 'line 3', ['gpt-4.1-mini']],
] as const)('%s', (file, format, errors, skippedLine, models) => {
  // Turns: [read_file src/a.ts, read_file src/b.ts, write_file src/a.ts], [deploy] (unknown),
  // [run_command `ls src | wc -l`, list_dir src]; text between them; a line that is not JSON.
  it('reads the turns, the errors, the skipped line and the models', async () => {
    const trace = readTrace(await fixture(file));
    expect(trace.format).toBe(format);
    expect(trace.turns.map((turn) => turn.calls.map((call) => call.name))).toEqual([
      ['read_file', 'read_file', 'write_file'],
      ['deploy'],
      ['run_command', 'list_dir'],
    ]);
    const report = replayTrace({ trace, latency: AT_MEDIANS });
    expect(report.trace).toMatchObject({
      format,
      turns: 3,
      calls: 6,
      multiCallTurns: 2,
      conflictingPairs: 1,
      errors,
      durationsFromTrace: 0,
      durationsFromModel: 6,
      unknownTools: { deploy: 1 },
      // `ls src | wc -l` is the one shell call, and read-only.
      shellCalls: 1,
      shellReadOnly: 1,
    });
    expect(report.trace.skipped[0]).toMatch(new RegExp(`^${skippedLine}: not JSON`));
    expect(report.models.map((model) => model.model)).toEqual(models);
  });

  it('gives the strategies their figures at the medians (read 40, write 70, shell 1500, unknown 300 ms)', async () => {
    const report = replayTrace({ trace: readTrace(await fixture(file)), latency: AT_MEDIANS });
    // greedy: [[read a, read b], [write a]] 110, deploy 300, both reads of src 1500.
    expect(byStrategy(report, 'makespanMs')).toMatchObject({
      greedy: 1910,
      sequential: 150 + 300 + 1540,
      eager: 1910,
      'all-at-once': 70 + 300 + 1500,
    });
    // Streamed, eager: the write starts on arrival (70 after the stream); `ls` starts when
    // written, list_dir (`{"path":"src"}`, 12 + 14 ÷ 4 tokens at 80/s) 193.75 ms later.
    expect(byStrategy(report, 'afterStreamMs')).toMatchObject({
      greedy: 1910,
      eager: 70 + 300 + (1500 - ((12 + 14 / 4) / 80) * 1000),
    });
    expect(byStrategy(report, 'conflictingOverlaps')).toMatchObject({
      greedy: 0,
      'all-at-once': 1,
    });
  });
});

describe('readTrace, given something else', () => {
  it('names the line when no record shows a known format', () => {
    let error: unknown;
    try {
      readTrace('{"level":"info","msg":"started"}\n{"level":"info","msg":"done"}\n');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BenchError);
    expect((error as BenchError).code).toBe('invalid_trace');
    expect((error as BenchError).message).toMatch(
      /^line 1: expected a Claude Code stream-json event .* got \{"level":"info","msg":"started"\}$/,
    );
  });

  it('names the line of an assistant event without content', () => {
    expect(() =>
      readTrace(
        '{"type":"system","subtype":"init","session_id":"s","cwd":"/r"}\n{"type":"assistant","message":{"id":"m"},"session_id":"s"}\n',
      ),
    ).toThrow(
      "line 2: expected an assistant event's `message.content` to be a list of blocks, got nothing",
    );
  });

  it('reads the session files under ~/.claude/projects: toolUseResult, no init event', () => {
    const trace = readTrace(
      [
        '{"type":"assistant","uuid":"a1","sessionId":"s","message":{"id":"m1","role":"assistant","model":"claude-opus-4-1","content":[{"type":"tool_use","id":"t1","name":"WebSearch","input":{"query":"x"}}]},"timestamp":"2025-10-01T10:00:00.000Z"}',
        '{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"results"}]},"toolUseResult":{"query":"x","results":[],"durationSeconds":1.5},"timestamp":"2025-10-01T10:00:09.000Z"}',
      ].join('\n'),
    );
    expect(trace).toMatchObject({ format: 'claude-code', cwd: '/workspace' });
    expect(trace.turns).toEqual([
      {
        model: 'claude-opus-4-1',
        calls: [
          { id: 't1', name: 'WebSearch', input: { query: 'x' }, isError: false, durationMs: 1500 },
        ],
      },
    ]);
  });

  it('reads one JSON document too: a request with `model` and `messages`', () => {
    const trace = readTrace(
      JSON.stringify({
        model: 'gpt-4.1',
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'c',
                type: 'function',
                function: { name: 'glob', arguments: '{"pattern":"*.ts"}' },
              },
            ],
          },
        ],
      }),
    );
    expect(trace.turns).toEqual([
      {
        model: 'gpt-4.1',
        calls: [{ id: 'c', name: 'glob', input: { pattern: '*.ts' }, isError: false }],
      },
    ]);
  });
});

describe('declareCall', () => {
  const cwd = '/repo';

  it('declares Bash by the shell classifier: reads what a read-only pipeline names', () => {
    expect(
      declareCall({ name: 'Bash', input: { command: 'cd src && cat a.ts | head' } }, { cwd }),
    ).toEqual({
      concurrencySafe: true,
      access: [{ key: 'fs:/repo/src/a.ts', mode: 'read' }],
      kind: 'shell',
      known: true,
    });
    expect(declareCall({ name: 'Bash', input: { command: 'rm -rf dist' } }, { cwd })).toEqual({
      concurrencySafe: false,
      access: [{ key: 'fs:/repo', mode: 'write' }],
      kind: 'shell',
      known: true,
    });
  });

  it('declares Bash as a sandboxed run_command would: unlisted options and reads outside the directory are unsafe', () => {
    for (const command of [
      'sed --in s/x/y/ a.txt',
      'sort --outp=w.txt a.txt',
      "git grep -O'touch X'",
      'cat a.txt \\ # show it; rm -rf src',
      'cat ../secret',
      'cat /etc/passwd',
      'git -C /elsewhere log',
      'grep -f /abs/patterns x',
    ]) {
      expect(declareCall({ name: 'Bash', input: { command } }, { cwd }), command).toMatchObject({
        concurrencySafe: false,
        access: [{ key: 'fs:/repo', mode: 'write' }],
      });
    }
    expect(
      declareCall({ name: 'Bash', input: { command: 'cat /repo/src/a.ts' } }, { cwd }),
    ).toMatchObject({
      concurrencySafe: true,
      access: [{ key: 'fs:/repo/src/a.ts', mode: 'read' }],
    });
  });

  it('maps the MCP filesystem server, also behind an mcp__ prefix, and knows nothing else', () => {
    expect(
      declareCall(
        { name: 'mcp__filesystem__move_file', input: { source: 'a', destination: 'b' } },
        { cwd },
      ),
    ).toEqual({
      concurrencySafe: true,
      access: [
        { key: 'fs:/repo/a', mode: 'write' },
        { key: 'fs:/repo/b', mode: 'write' },
      ],
      kind: 'write',
      known: true,
    });
    expect(declareCall({ name: 'mcp__github__create_issue', input: {} }, { cwd })).toEqual({
      concurrencySafe: false,
      kind: 'mcp',
      known: false,
    });
    expect(declareCall({ name: 'Read', input: { file_path: 42 } }, { cwd })).toEqual({
      concurrencySafe: false,
      kind: 'read',
      known: true,
    });
  });

  it('takes the user mapping first; one that throws counts as unknown', () => {
    const mappings = {
      deploy: (input: unknown, context: { keyOf(path: unknown): string | undefined }) => ({
        concurrencySafe: true,
        access: [
          { key: context.keyOf(`envs/${(input as { env: string }).env}`)!, mode: 'write' as const },
        ],
        kind: 'mcp' as const,
      }),
      Read: { concurrencySafe: false },
      broken: () => {
        throw new Error('no');
      },
    };
    expect(declareCall({ name: 'deploy', input: { env: 'prod' } }, { cwd, mappings })).toEqual({
      concurrencySafe: true,
      access: [{ key: 'fs:/repo/envs/prod', mode: 'write' }],
      kind: 'mcp',
      known: true,
    });
    expect(declareCall({ name: 'Read', input: { file_path: 'a' } }, { cwd, mappings })).toEqual({
      concurrencySafe: false,
      known: true,
    });
    expect(declareCall({ name: 'broken', input: {} }, { cwd, mappings })).toEqual({
      concurrencySafe: false,
      kind: 'other',
      known: false,
    });
  });
});

describe('a generated transcript of 300 turns', () => {
  it('replays with the counts the generator wrote, every duration from the transcript', () => {
    const generated = generateClaudeCodeTrace({ turns: 300, seed: 7 });
    const report = replayTrace({ trace: readTrace(generated.jsonl) });
    expect(report.trace).toMatchObject({
      turns: generated.turns,
      calls: generated.calls,
      multiCallTurns: generated.multiCallTurns,
      errors: generated.errors,
      durationsFromTrace: generated.calls,
      unknownTools: {},
    });
    expect(generated.turns).toBe(300);
    expect(generated.subAgentTurns).toBeGreaterThan(0);
    const haiku = report.models.find((model) => model.model === 'claude-haiku-4-5-20251001');
    expect(haiku?.turns).toBe(generated.subAgentTurns);
    // Strategies that keep the rules never overlap conflicting calls.
    for (const row of report.strategies) {
      if (!row.strategy.includes('all-at-once'))
        expect(row.conflictingOverlaps, row.strategy).toBe(0);
    }
  });
});

describe('loadTraceMappings', () => {
  const cwd = fileURLToPath(new URL('./fixtures/', import.meta.url));

  it('loads a --map module and its mappings take part in the replay', async () => {
    const mappings = await loadTraceMappings({ path: 'deploy.map.ts', cwd });
    const report = replayTrace({
      trace: readTrace(await fixture('openai-chat.jsonl')),
      mappings,
      latency: AT_MEDIANS,
    });
    expect(report.trace.unknownTools).toEqual({});
    expect(
      declareCall({ name: 'deploy', input: { env: 'prod' } }, { cwd: '/workspace', mappings }),
    ).toMatchObject({
      concurrencySafe: true,
      access: [{ key: 'fs:/workspace/envs/prod', mode: 'write' }],
    });
  });

  it('names the module that does not load, and the tool mapped to something else', async () => {
    await expect(loadTraceMappings({ path: 'missing.map.ts', cwd })).rejects.toThrow(
      /^Could not load the --map module `missing.map.ts`/,
    );
    await expect(loadTraceMappings({ path: 'broken.map.ts', cwd })).rejects.toThrow(
      'Expected the mapping of `deploy` in `broken.map.ts` to be a function or `{ concurrencySafe: boolean, access?, kind? }`, got {"safe":true}',
    );
  });
});

describe('the same seed', () => {
  it('gives the same figures; another seed draws other durations where the transcript has none', async () => {
    const trace = readTrace(await fixture('openai-chat.jsonl'));
    const now = () => new Date('2026-01-01T00:00:00Z');
    const replay = (seed: number) => renderJson(replayTrace({ trace, seed, now }));
    expect(replay(1)).toBe(replay(1));
    expect(replay(2)).not.toBe(replay(1));
  });
});

describe('the trace report', async () => {
  const report = replayTrace({
    trace: readTrace(await fixture('claude-code.jsonl')),
    file: 'claude-code.jsonl',
    command: 'pnpm bench --trace claude-code.jsonl',
  });

  it('renders markdown with the totals, a table per model and the method', () => {
    const markdown = renderTraceMarkdown(report);
    expect(markdown.startsWith('# toolwaves trace replay\n')).toBe(true);
    expect(markdown).toContain(
      'claude-code.jsonl (claude-code): 4 model turns with tool calls, 9 calls, 3 turns with 2 calls or more, 3 conflicting pairs inside turns, 1 error results.',
    );
    expect(markdown).toContain('| eager | 2.75 s | 0.99 | ');
    expect(markdown).toContain('### claude-haiku-4-5-20251001');
    expect(markdown).toContain('Reproduce: `pnpm bench --trace claude-code.jsonl`');
  });

  it('renders one self-contained HTML page with a series per strategy', () => {
    const html = renderTraceHtml(report);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    const start = html.indexOf('data-chart="trace-after-stream"');
    const svg = html.slice(start, html.indexOf('</svg>', start));
    expect([...svg.matchAll(/data-series="([^"]*)"/g)].map((match) => match[1])).toEqual(
      report.strategies.map((row) => row.strategy),
    );
    // One group per model and one for the whole trace.
    expect((svg.match(/<rect [^>]*data-group=/g) ?? []).length).toBe(3 * report.strategies.length);
  });
});
