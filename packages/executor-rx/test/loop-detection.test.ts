import { ToolRegistry } from '@toolwaves/core';
import { MockTool } from '@toolwaves/core/testing';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  type DispatchError,
  Dispatcher,
  exponentialBackoff,
  loopDetectionHook,
} from '../src/index.js';
import { canonicalJson } from '../src/loop-detection-hook.js';
import { ends } from './recording.js';
import { call } from './tool-call.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 0 }], c: 3 } })).toBe(
      '{"a":{"c":3,"d":[2,{"y":0,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
    expect(canonicalJson(undefined)).toBe('undefined');
    expect(canonicalJson('x')).toBe('"x"');
  });
});

describe('loopDetectionHook', () => {
  const setup = (threshold?: number) => {
    const tool = new MockTool({ name: 'search' });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(tool),
      hooks: { pre: [loopDetectionHook(threshold === undefined ? {} : { threshold })] },
    });
    return { tool, dispatcher };
  };

  it('aborts the call past the threshold, across dispatches, whatever the key order', async () => {
    const { tool, dispatcher } = setup(2);
    await dispatcher.dispatch([call('1', 'search', { q: 'x', page: 1 })]);
    await dispatcher.dispatch([call('2', 'search', { page: 1, q: 'x' })]);
    const error = await dispatcher
      .dispatch([call('3', 'search', { q: 'other' }), call('4', 'search', { q: 'x', page: 1 })])
      .then(
        () => undefined,
        (e: unknown) => e as DispatchError,
      );
    expect(error?.code).toBe('loop_detected');
    expect(error?.message).toBe(
      'Loop detected: `search` was called 3 times with the same input {"page":1,"q":"x"} (threshold 2)',
    );
    expect(error?.toolCallId).toBe('4');
    expect(tool.calls.map((c) => c.toolCallId)).toEqual(['1', '2', '3']);
  });

  it('defaults to 3 and is opt-in: without it the same call runs on', async () => {
    const { dispatcher } = setup();
    for (let i = 0; i < 3; i++) await dispatcher.dispatch([call(`${i}`, 'search', { q: 'x' })]);
    await expect(dispatcher.dispatch([call('3', 'search', { q: 'x' })])).rejects.toMatchObject({
      code: 'loop_detected',
    });
    const plain = new Dispatcher({ registry: new ToolRegistry().add(new MockTool({ name: 's' })) });
    for (let i = 0; i < 5; i++) {
      const [result] = await plain.dispatch([call(`${i}`, 's', { q: 'x' })]);
      expect(result?.isError).toBe(false);
    }
  });

  it('does not count retries of one call', async () => {
    const flaky = new MockTool({
      name: 'flaky',
      error: (_input, attempt) => (attempt < 4 ? new Error('busy') : undefined),
    });
    const dispatcher = new Dispatcher({
      registry: new ToolRegistry().add(flaky),
      hooks: { pre: [loopDetectionHook({ threshold: 1 })] },
      recovery: { strategy: exponentialBackoff({ baseMs: 0 }) },
    });
    const events = await lastValueFrom(
      dispatcher.run([call('a', 'flaky', { n: 1 })]).pipe(toArray()),
    );
    expect(ends(events).map((e) => e.outcome)).toEqual(['retry', 'retry', 'retry', 'ok']);
  });
});
