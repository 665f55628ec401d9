import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { lastValueFrom, toArray } from 'rxjs';
import { it } from 'vitest';
import { Dispatcher } from '../src/index.js';

it('t', async () => {
  const registry = new ToolRegistry()
    .add(fnTool({ name: 'async', description: 'x', execute: async () => 'later' }))
    .add(fnTool({ name: 'sync', description: 'x', concurrencySafe: true, execute: () => 'now' }));
  for (const n of [1000, 2000, 4000, 8000]) {
    const calls: ToolCall[] = [
      { id: 'first', name: 'async', input: {} },
      ...Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: 'sync', input: { i } })),
    ];
    const d = new Dispatcher({ registry, mode: 'sequential' });
    let t = performance.now();
    await lastValueFrom(d.run(calls).pipe(toArray()));
    console.log('run', n, (performance.now() - t).toFixed(0), 'ms');
    t = performance.now();
    await d.dispatch(calls);
    console.log('dispatch', n, (performance.now() - t).toFixed(0), 'ms');
  }
}, 120000);
