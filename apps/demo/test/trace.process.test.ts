import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { abortableDelay, fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { openTelemetry } from '@toolwaves/otel';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseCliOptions } from '../src/cli-options.js';
import { callLabelsById } from '../src/describe-call.js';
import { formatSpanTree } from '../src/span-tree.js';
import { demoCommand } from './demo-command.js';

describe('--trace', () => {
  it('takes an optional file: alone, before another flag, or with one', () => {
    expect(parseCliOptions([]).trace).toBeUndefined();
    expect(parseCliOptions(['--trace']).trace).toEqual({ file: undefined });
    expect(parseCliOptions(['--trace', '--json']).trace).toEqual({ file: undefined });
    expect(parseCliOptions(['--trace', '--json']).json).toBe(true);
    expect(parseCliOptions(['--trace', 'turns.json', '--json'], { cwd: '/w' }).trace).toEqual({
      file: '/w/turns.json',
    });
    expect(parseCliOptions(['--trace=out/t.json'], { cwd: '/w' }).trace).toEqual({
      file: '/w/out/t.json',
    });
  });

  it('prints a turn as a span tree: each call when it ran, what it waited for, its bar', async () => {
    vi.useFakeTimers({
      now: 0,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
    });
    try {
      const exporter = new InMemorySpanExporter();
      const tracerProvider = new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(exporter)],
      });
      const file = (name: string, mode: 'read' | 'write', ms: number) =>
        fnTool({
          name,
          description: name,
          input: z.object({ path: z.string() }),
          concurrencySafe: true,
          access: ({ path }) => [{ key: `fs:/${path}`, mode }],
          execute: async (_input, context) => {
            await abortableDelay(ms, context.signal);
            return 'ok';
          },
        });
      const registry = new ToolRegistry()
        .add(file('read_file', 'read', 100))
        .add(file('edit_file', 'write', 100))
        .add(file('stat', 'read', 50));
      const dispatcher = new Dispatcher({
        registry,
        mode: 'eager',
        instrumentation: openTelemetry({ tracerProvider }),
      });
      const calls: ToolCall[] = [
        { id: 'read', name: 'read_file', input: { path: 'a.ts' } },
        { id: 'edit', name: 'edit_file', input: { path: 'a.ts' } },
        { id: 'stat', name: 'stat', input: { path: 'b.ts' } },
      ];
      const done = dispatcher.dispatch(calls);
      await vi.advanceTimersByTimeAsync(300);
      await done;

      expect(formatSpanTree({ spans: exporter.getFinishedSpans(), barWidth: 8 })).toEqual([
        'dispatch · eager, batch, 3 calls                            +0 ms   200 ms',
        '├─ execute_tool read_file read                              +0 ms   100 ms  ████',
        '├─ execute_tool stat stat                                   +0 ms    50 ms  ██',
        '└─ execute_tool edit_file edit · waited 100 ms for read   +100 ms   100 ms  ░░░░████',
      ]);
      // named as the live view names them (callLabelsById: call 1, 2, 3 of turn 4)
      const labels = callLabelsById([{ turn: 4, calls }]);
      expect(formatSpanTree({ spans: exporter.getFinishedSpans(), barWidth: 8, labels })).toEqual([
        'dispatch · eager, batch, 3 calls                            +0 ms   200 ms',
        '├─ execute_tool read_file #4.1                              +0 ms   100 ms  ████',
        '├─ execute_tool stat #4.3                                   +0 ms    50 ms  ██',
        '└─ execute_tool edit_file #4.2 · waited 100 ms for #4.1   +100 ms   100 ms  ░░░░████',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the demo with --trace FILE writes the session as OTLP JSON, FILE relative to where pnpm was run', async () => {
    const demoDir = fileURLToPath(new URL('..', import.meta.url));
    const dir = await mkdtemp(join(tmpdir(), 'toolwaves-trace-'));
    try {
      const out = join(dir, 'trace.json');
      const [node, args] = await demoCommand([
        '--latency',
        '0',
        '--tokens-per-second',
        '100000',
        '--trace',
        'trace.json',
      ]);
      const { stdout } = await promisify(execFile)(node, args, {
        cwd: demoDir,
        env: { ...process.env, OPENAI_API_KEY: '', NO_COLOR: '1', INIT_CWD: dir },
      });
      expect(stdout).toMatch(/trace: \d+ spans written to .*trace\.json \(OTLP JSON\)/);
      const request = JSON.parse(await readFile(out, 'utf8')) as {
        resourceSpans: {
          resource: { attributes: { key: string; value: { stringValue?: string } }[] };
          scopeSpans: {
            spans: { name: string; traceId: string; attributes: { key: string }[] }[];
          }[];
        }[];
      };
      const spans = request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
      const names = spans.map((span) => span.name);
      expect(names.filter((name) => name === 'demo session')).toHaveLength(1);
      expect(names.filter((name) => name === 'toolwaves.dispatch').length).toBeGreaterThanOrEqual(
        5,
      );
      const calls = spans.filter((span) => span.name.startsWith('execute_tool '));
      expect(calls.length).toBeGreaterThan(10);
      for (const call of calls) {
        expect(call.attributes.map((attribute) => attribute.key)).toEqual(
          expect.arrayContaining([
            'gen_ai.operation.name',
            'gen_ai.tool.name',
            'gen_ai.tool.call.id',
          ]),
        );
      }
      expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
      for (const { resource } of request.resourceSpans) {
        expect(resource.attributes).toContainEqual({
          key: 'service.name',
          value: { stringValue: 'toolwaves-demo' },
        });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
