import { fnTool, ToolRegistry } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Dispatcher } from '../src/index.js';
import { call } from './tool-call.js';

describe('a call is prepared once, from planning to its first attempt', () => {
  it.each(['sequential', 'parallel', 'eager'] as const)(
    '%s: the input is parsed once and the declarations asked once per call',
    async (mode) => {
      let parses = 0;
      let safetyChecks = 0;
      const seen: unknown[] = [];
      const tool = fnTool({
        name: 'read',
        description: 'reads',
        input: z.object({ path: z.string() }).transform((input) => {
          parses += 1;
          return { ...input, parsed: parses };
        }),
        concurrencySafe: () => {
          safetyChecks += 1;
          return true;
        },
        resourceKey: (input) => input.path,
        execute: (input) => {
          seen.push(input);
          return 'ok';
        },
      });
      const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool), mode });
      const results = await dispatcher.dispatch([
        call('a', 'read', { path: 'x' }),
        call('b', 'read', { path: 'y' }),
        call('c', 'read', { path: 'x' }),
      ]);
      expect(results.map((r) => r.content)).toEqual(['ok', 'ok', 'ok']);
      expect(parses).toBe(3);
      // Sequential mode never plans, so it never asks; parallel and eager ask each call once.
      expect(safetyChecks).toBe(mode === 'sequential' ? 0 : 3);
      expect(seen).toEqual([
        { path: 'x', parsed: 1 },
        { path: 'y', parsed: 2 },
        { path: 'x', parsed: 3 },
      ]);
    },
  );

  it('a retry with a corrected input parses the new input', async () => {
    let parses = 0;
    const tool = fnTool({
      name: 'read',
      description: 'reads',
      input: z.object({ path: z.string() }).transform((input) => {
        parses += 1;
        return input;
      }),
      execute: (input) => {
        if (input.path === 'bad') throw new Error('no such file');
        return `read ${input.path}`;
      },
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      recovery: {
        strategy: {
          name: 'fix',
          decide: () => ({ action: 'retry', delayMs: 0, correction: { input: { path: 'good' } } }),
        },
      },
    });
    const [result] = await dispatcher.dispatch([call('a', 'read', { path: 'bad' })]);
    expect(result?.content).toBe('read good');
    expect(parses).toBe(2);
  });

  it('corrections add up: a corrected tool stays when the next correction changes the input', async () => {
    const seen: [string, unknown][] = [];
    const failing = (name: string) =>
      fnTool({
        name,
        description: name,
        execute: (input: unknown) => {
          seen.push([name, input]);
          if ((input as { n: number }).n < 2) throw new Error('try again');
          return `${name} done`;
        },
      });
    const corrections = [{ toolName: 'second' }, { input: { n: 2 } }];
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(failing('first')).add(failing('second')),
      recovery: {
        strategy: {
          name: 'correct',
          decide: ({ failure }) => ({
            action: 'retry',
            delayMs: 0,
            correction: corrections[failure.attempt - 1] ?? {},
          }),
        },
      },
    });
    const [result] = await dispatcher.dispatch([call('a', 'first', { n: 0 })]);
    expect(seen).toEqual([
      ['first', { n: 0 }],
      ['second', { n: 0 }],
      ['second', { n: 2 }],
    ]);
    expect(result).toMatchObject({ toolName: 'second', content: 'second done' });
  });
});
