import type { Context } from '@restatedev/restate-sdk';
import { ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { describe, expect, it } from 'vitest';
import { RestateTurnError, runDurableTurn } from '../src/index.js';

// Never reached: the options are checked before the context is used.
const ctx = {} as Context;
const registry = new ToolRegistry();
const dispatcher = new Dispatcher({ registry });

describe('runDurableTurn options', () => {
  it.each([
    [{ dispatcher: undefined, registry, calls: [] }, /`dispatcher`/],
    [{ dispatcher, registry: 3, calls: [] }, /`registry`/],
    [{ dispatcher, registry, calls: 'a' }, /`calls`/],
    [{ dispatcher, registry, calls: [], turnId: '' }, /`turnId`.*got ``/],
    [{ dispatcher, registry, calls: [], coordinator: { url: 'redis://' } }, /`coordinator`/],
  ])('refuses %o naming the field', async (options, message) => {
    const run = runDurableTurn(ctx, options as never);
    await expect(run).rejects.toThrow(message);
    await expect(run).rejects.toBeInstanceOf(RestateTurnError);
    await expect(run).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
