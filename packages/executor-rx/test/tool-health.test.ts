import { ToolRegistry } from '@toolwaves/core';
import { MockTool, trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { Dispatcher, ToolHealth } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { call } from './tool-call.js';

describe('ToolHealth', () => {
  it('keeps successes, failures and an EWMA of latency per tool', () => {
    const health = new ToolHealth({ alpha: 0.25 });
    expect(health.stats('read')).toEqual({ successes: 0, failures: 0, latencyMs: undefined });
    expect(health.estimateMs('read')).toBeUndefined();
    health.record({ toolName: 'read', ok: true, durationMs: 100 });
    expect(health.estimateMs('read')).toBe(100);
    health.record({ toolName: 'read', ok: false, durationMs: 200 });
    expect(health.estimateMs('read')).toBe(125);
    health.record({ toolName: 'read', ok: true, durationMs: 25 });
    expect(health.stats('read')).toEqual({ successes: 2, failures: 1, latencyMs: 100 });
    health.record({ toolName: 'grep', ok: true, durationMs: 7 });
    expect(Object.keys(health.snapshot())).toEqual(['grep', 'read']);
    expect(health.snapshot().grep).toEqual({ successes: 1, failures: 0, latencyMs: 7 });
    health.reset();
    expect(health.snapshot()).toEqual({});
  });

  it('defaults alpha to 0.2', () => {
    const health = new ToolHealth();
    expect(health.alpha).toBe(0.2);
    health.record({ toolName: 't', ok: true, durationMs: 0 });
    health.record({ toolName: 't', ok: true, durationMs: 100 });
    expect(health.estimateMs('t')).toBeCloseTo(20, 10);
  });
});

describe('the dispatcher records every attempt that ran a tool', () => {
  useFakeClock();

  it('timed in virtual time; soft errors before the tool runs are not recorded', async () => {
    const health = new ToolHealth({ alpha: 0.5 });
    const tool = new MockTool({
      name: 'm',
      delayMs: (input) => (input as { ms: number }).ms,
      result: (input) => ({ content: 'r', isError: (input as { bad?: boolean }).bad === true }),
    });
    const dispatcher = new Dispatcher({ registry: new ToolRegistry().add(tool), health });
    const done = trackPromise(
      dispatcher.dispatch([
        call('a', 'm', { ms: 40 }),
        call('b', 'm', { ms: 80, bad: true }),
        call('c', 'nope'),
      ]),
    );
    await vi.advanceTimersByTimeAsync(120);
    expect(done.status).toBe('resolved');
    expect(health.snapshot()).toEqual({ m: { successes: 1, failures: 1, latencyMs: 60 } });
  });
});
