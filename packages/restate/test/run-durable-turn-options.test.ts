import type { Context } from '@restatedev/restate-sdk';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { describe, expect, it } from 'vitest';
import { RestateTurnError, runDurableTurn } from '../src/index.js';

// Never reached by the option rows: the options are checked before the context.
const ctx = {} as Context;
const registry = new ToolRegistry();
const dispatcher = new Dispatcher({ registry });

describe('runDurableTurn options', () => {
  it.each([
    [{ dispatcher: undefined, registry, calls: [] }, /`dispatcher`/],
    [{ dispatcher: registry, registry, calls: [] }, /`dispatcher`.*got a ToolRegistry/],
    [{ dispatcher, registry: 3, calls: [] }, /`registry`/],
    [{ dispatcher, registry, calls: 'a' }, /`calls`/],
    [{ dispatcher, registry, calls: [{ name: 'read_file' }] }, /`calls\[0\]`/],
    [
      { dispatcher, registry, calls: [], turnId: '' },
      'Expected `turnId` to be a non-empty string, got `""` (string)',
    ],
    [{ dispatcher, registry, calls: [], coordinator: { url: 'redis://' } }, /`coordinator`/],
    [
      { dispatcher, registry, calls: [], turnID: 't' },
      'Unknown option `turnID` in the options of runDurableTurn; did you mean `turnId`? The options are `dispatcher`, `registry`, `calls`, `turnId`, `coordinator`',
    ],
    [undefined, /^Expected the options of runDurableTurn to be an object, got `undefined`/],
  ])('refuses %o naming the field', async (options, message) => {
    const run = runDurableTurn(ctx, options as never);
    await expect(run).rejects.toThrow(message);
    await expect(run).rejects.toBeInstanceOf(RestateTurnError);
    await expect(run).rejects.toMatchObject({ code: 'invalid_options' });
  });

  it('refuses a context that is not a Restate Context, naming it', async () => {
    const run = runDurableTurn({ request: () => ({}) } as unknown as Context, {
      dispatcher,
      registry,
      calls: [],
    });
    await expect(run).rejects.toThrow(
      /^Expected `ctx` to be a Restate Context \(with run and request\), got /,
    );
    await expect(run).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
