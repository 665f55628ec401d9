import 'reflect-metadata';
import { rm } from 'node:fs/promises';
import type { ToolCall, ToolRegistry } from '@toolwaves/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchRegistry } from '../src/workloads/bench-registry.js';
import { defaultWorkloads, generateBatches } from '../src/workloads/generate-batches.js';
import type { BenchWorkload } from '../src/workloads/workload.js';
import {
  createWorkspace,
  fileContent,
  workspaceLayout,
} from '../src/workloads/workspace-layout.js';

const layout = workspaceLayout();
const sizes = [2, 3, 5, 8, 13, 21, 34, 64];
let root: string;
let registry: ToolRegistry;
let workloads: BenchWorkload[];

beforeAll(async () => {
  root = await createWorkspace({ layout });
  registry = benchRegistry({ root });
  workloads = generateBatches({
    workloads: defaultWorkloads(),
    registry,
    layout,
    seed: 1,
    sizes,
    repeats: 2,
  });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const toolWorkloads = (): BenchWorkload[] => workloads;
const named = (name: string): BenchWorkload => workloads.find((w) => w.name === name)!;
const input = (call: ToolCall): Record<string, string> => call.input as Record<string, string>;

describe('tool workloads', () => {
  it('are the six expected ones, with batches of every requested size', () => {
    expect(toolWorkloads().map((w) => w.name)).toEqual([
      'explore',
      'refactor',
      'mixed',
      'hot-file',
      'barriers',
      'remote',
    ]);
    for (const workload of toolWorkloads()) {
      expect(workload.batches.map((batch) => batch.size)).toEqual(sizes.flatMap((s) => [s, s]));
      for (const batch of workload.batches) {
        expect(batch.calls).toHaveLength(batch.size);
        expect(batch.nodes).toHaveLength(batch.size);
      }
    }
  });

  it('give the same batches for the same seed and other batches for another seed', () => {
    const again = generateBatches({
      workloads: defaultWorkloads(),
      registry,
      layout,
      seed: 1,
      sizes,
      repeats: 2,
    });
    expect(again).toEqual(workloads);
    const other = generateBatches({
      workloads: defaultWorkloads(),
      registry,
      layout,
      seed: 2,
      sizes,
      repeats: 2,
    });
    expect(other[0]!.batches.map((b) => b.calls)).not.toEqual(
      workloads[0]!.batches.map((b) => b.calls),
    );
  });

  it('call real tools with valid inputs; only run_check is not concurrency-safe', () => {
    for (const workload of toolWorkloads()) {
      for (const batch of workload.batches) {
        batch.calls!.forEach((call, index) => {
          const tool = registry.get(call.name);
          expect(tool, call.name).toBeDefined();
          expect(tool!.input!.safeParse(call.input).success, JSON.stringify(call)).toBe(true);
          const node = batch.nodes[index]!;
          expect(node.parallelizable).toBe(call.name !== 'run_check');
          // Durations are kept apart from the declarations: no strategy reads them off a node.
          expect(node.estimateMs).toBeUndefined();
          expect(batch.durationsMs[index]).toBeGreaterThan(0);
          expect(batch.tools[index]).toBe(call.name);
          expect(batch.argumentChars[index]).toBe(JSON.stringify(call.input).length);
        });
      }
    }
  });

  it('edit, move and delete only what a fresh workspace holds, so real runs answer no errors', () => {
    const existing = new Set([...layout.sourceFiles, ...layout.docs, ...layout.scratchFiles]);
    for (const workload of toolWorkloads()) {
      for (const batch of workload.batches) {
        const contents = new Map<string, string>();
        const gone = new Set<string>();
        const written = new Set<string>();
        for (const call of batch.calls!) {
          const { path, from, to, old_string: old, new_string: replacement } = input(call);
          if (call.name === 'edit_file') {
            const text = contents.get(path!) ?? fileContent(path!);
            expect(text.split(old!).length - 1, `${path}: ${old}`).toBe(1);
            contents.set(path!, text.replace(old!, replacement!));
          } else if (call.name === 'move_file' || call.name === 'delete_file') {
            const source = from ?? path!;
            expect(existing.has(source) && !gone.has(source)).toBe(true);
            gone.add(source);
            if (to !== undefined) expect(existing.has(to)).toBe(false);
          } else if (call.name === 'write_file') {
            expect(existing.has(path!) || written.has(path!)).toBe(false);
            written.add(path!);
          } else if (path !== undefined && call.name !== 'run_check') {
            expect(gone.has(path)).toBe(false);
          }
        }
      }
    }
  });

  it('explore only reads', () => {
    for (const batch of named('explore').batches) {
      for (const node of batch.nodes) {
        expect(node.access?.every((access) => access.mode === 'read')).toBe(true);
      }
    }
  });

  it('refactor reads files before it edits them, and edits some file more than once', () => {
    let repeatedEdits = 0;
    for (const batch of named('refactor').batches) {
      const read = new Set<string>();
      const edits = new Map<string, number>();
      for (const call of batch.calls!) {
        const { path } = input(call);
        if (call.name === 'read_file') read.add(path!);
        if (call.name === 'edit_file') {
          expect(read.has(path!)).toBe(true);
          edits.set(path!, (edits.get(path!) ?? 0) + 1);
        }
      }
      if ([...edits.values()].some((count) => count > 1)) repeatedEdits++;
    }
    expect(repeatedEdits).toBeGreaterThanOrEqual(8);
  });

  it('hot-file reads, edits and stats one file per batch, and mostly that', () => {
    for (const batch of named('hot-file').batches) {
      const paths = new Set(
        batch.calls!.filter((call) => call.name !== 'grep').map((call) => input(call).path),
      );
      expect(paths.size).toBe(1);
      const onFile = batch.calls!.filter((call) => call.name !== 'grep').length;
      if (batch.size >= 21) expect(onFile / batch.size).toBeGreaterThan(0.75);
    }
  });

  it('remote calls MCP servers, sub-agents and test runs that read the folder they work on', () => {
    const remote = toolWorkloads().find((w) => w.name === 'remote')!;
    const calls = remote.batches.flatMap((batch) => batch.calls ?? []);
    const names = new Set(calls.map((call) => call.name));
    for (const name of ['remote_fetch', 'sub_agent', 'run_tests']) expect(names).toContain(name);
    const tests = remote.batches.flatMap((batch) =>
      batch.nodes.filter((_, i) => batch.calls?.[i]?.name === 'run_tests'),
    );
    for (const node of tests) {
      expect(node.parallelizable).toBe(true);
      expect(node.access).toEqual([
        { key: expect.stringMatching(/^fs:\/.*\/src\/[a-z]+$/), mode: 'read' },
      ]);
    }
  });

  it('barriers has about a third of its calls not concurrency-safe', () => {
    const nodes = named('barriers').batches.flatMap((batch) => batch.nodes);
    const unsafe = nodes.filter((node) => !node.parallelizable).length / nodes.length;
    expect(unsafe).toBeGreaterThan(0.25);
    expect(unsafe).toBeLessThan(0.45);
  });
});

describe('generateBatches', () => {
  it('refuses sizes and repeats that are not integers from 1 up', () => {
    expect(() =>
      generateBatches({ workloads: defaultWorkloads(), registry, layout, seed: 1, sizes: [0] }),
    ).toThrow('Expected `sizes` to be an integer from 1 and up, got `0` (number)');
    expect(() =>
      generateBatches({
        workloads: defaultWorkloads(),
        registry,
        layout,
        seed: 1,
        sizes: [2],
        repeats: 1.5,
      }),
    ).toThrow('Expected `repeats` to be an integer from 1 and up, got `1.5` (number)');
  });
});
