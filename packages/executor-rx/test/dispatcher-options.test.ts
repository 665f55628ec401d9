import { noCoordination, ToolRegistry } from '@toolwaves/core';
import { MockTool } from '@toolwaves/core/testing';
import { describe, expect, it } from 'vitest';
import {
  DispatchError,
  Dispatcher,
  type DispatcherOptions,
  exponentialBackoff,
  loopDetectionHook,
  ToolHealth,
} from '../src/index.js';
import { call } from './tool-call.js';

const registry = new ToolRegistry().add(new MockTool({ name: 'm' }));

const configError = (build: () => unknown): DispatchError => {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(DispatchError);
    expect((error as DispatchError).code).toBe('invalid_config');
    return error as DispatchError;
  }
  throw new Error('expected a configuration error');
};

const make = (options: Record<string, unknown>) => () =>
  new Dispatcher({ registry, ...options } as DispatcherOptions);

describe('Dispatcher options', () => {
  it.each([
    [
      { maxConcurrency: 0 },
      'Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)',
    ],
    [
      { maxConcurrency: 2.5 },
      'Expected `maxConcurrency` to be an integer from 1 and up, got `2.5` (number)',
    ],
    [
      { maxConcurrency: '4' },
      'Expected `maxConcurrency` to be an integer from 1 and up, got `"4"` (string)',
    ],
    [
      { mode: 'fast' },
      "Expected `mode` to be 'sequential', 'parallel' or 'eager', got `\"fast\"` (string)",
    ],
    [
      { priority: 'fastest' },
      "Expected `priority` to be 'model-order' or 'longest-first', got `\"fastest\"` (string)",
    ],
    [{ timeoutMs: 0 }, 'Expected `timeoutMs` to be a finite number above 0, got `0` (number)'],
    [{ timeoutMs: -5 }, 'Expected `timeoutMs` to be a finite number above 0, got `-5` (number)'],
    [
      { planner: { plan: () => ({}) } },
      'Expected `planner` to be a Planner ({ name: string, plan(nodes, options) }), got `{}` (object)',
    ],
    [
      { planner: 'greedy' },
      'Expected `planner` to be a Planner ({ name: string, plan(nodes, options) }), got `"greedy"` (string)',
    ],
    [
      { hooks: { pre: [() => undefined, 42] } },
      'Expected `hooks.pre[1]` to be a function, got `42` (number)',
    ],
    [
      { hooks: { post: 'log' } },
      'Expected `hooks.post` to be an array of functions, got `"log"` (string)',
    ],
    [
      { recovery: { strategy: { decide: () => ({ action: 'skip' }) } } },
      'Expected `recovery.strategy` to be a RecoveryStrategy ({ name: string, decide(reflection) }), got `{}` (object)',
    ],
    [
      { recovery: { strategy: exponentialBackoff(), reflector: {} } },
      'Expected `recovery.reflector` to be a Reflector ({ reflect(failure) }), got `{}` (object)',
    ],
    [{ health: { stats: () => ({}) } }, 'Expected `health` to be a ToolHealth, got `{}` (object)'],
    [
      { scheduler: { now: () => 0 } },
      'Expected `scheduler` to be a SchedulerLike ({ now(), schedule(work, delay) }), got `{}` (object)',
    ],
    [
      { whileStreaming: 'reads' },
      "Expected `whileStreaming` to be 'all' or 'read-only', got `\"reads\"` (string)",
    ],
    [
      { hooks: { pre: [], psot: [] } },
      'Unknown option `psot` in `hooks` of the Dispatcher; did you mean `post`? The options are `pre`, `post`',
    ],
    [
      { maxConcurency: 4 },
      'Unknown option `maxConcurency` in the options of the Dispatcher; did you mean `maxConcurrency`? The options are `registry`, `mode`, `maxConcurrency`, `priority`, `planner`, `hooks`, `recovery`, `timeoutMs`, `health`, `scheduler`, `coordinator`, `fleetExclusiveForUnsafe`, `settleTimeoutMs`, `instrumentation`, `onFailure`, `limits`, `modelOrdering`, `whileStreaming`',
    ],
  ])('refuses %o at construction', (options, message) => {
    expect(configError(make(options)).message).toBe(message);
  });

  it('refuses a missing registry and a non-object', () => {
    expect(configError(() => new Dispatcher({} as DispatcherOptions)).message).toBe(
      'Expected `registry` to be a ToolRegistry, got `undefined` (undefined)',
    );
    expect(configError(() => new Dispatcher(null as unknown as DispatcherOptions)).message).toBe(
      'Expected the options of the Dispatcher to be an object, got `null` (null)',
    );
  });

  it('defaults: sequential, cap 8, the greedy planner, a fresh health record', () => {
    const dispatcher = new Dispatcher({ registry });
    expect(dispatcher.mode).toBe('sequential');
    expect(dispatcher.maxConcurrency).toBe(8);
    expect(dispatcher.planner.name).toBe('greedy');
    expect(dispatcher.health).toBeInstanceOf(ToolHealth);
    const health = new ToolHealth();
    expect(new Dispatcher({ registry, health }).health).toBe(health);
  });

  it('checks per-dispatch options: synchronously in run, as a rejection in dispatch', async () => {
    const dispatcher = new Dispatcher({ registry });
    expect(
      configError(() => dispatcher.run([call('a', 'm')], { maxConcurrency: -1 })).message,
    ).toBe('Expected `maxConcurrency` to be an integer from 1 and up, got `-1` (number)');
    expect(
      configError(() =>
        dispatcher.run([call('a', 'm')], { signal: 'stop' as unknown as AbortSignal }),
      ).message,
    ).toBe('Expected `signal` to be an AbortSignal, got `"stop"` (string)');
    await expect(
      dispatcher.dispatch([call('a', 'm')], { mode: 'both' as 'parallel' }),
    ).rejects.toMatchObject({
      code: 'invalid_config',
      message: "Expected `mode` to be 'sequential', 'parallel' or 'eager', got `\"both\"` (string)",
    });
    expect(
      configError(() =>
        dispatcher.runStream([] as never, { whileStreaming: true as unknown as 'all' }),
      ).message,
    ).toBe("Expected `whileStreaming` to be 'all' or 'read-only', got `true` (boolean)");
    expect(
      configError(() => dispatcher.openTurn({ whileStreaming: 'writes' as 'all' })).message,
    ).toBe("Expected `whileStreaming` to be 'all' or 'read-only', got `\"writes\"` (string)");
    expect(configError(() => dispatcher.run('calls' as never)).message).toBe(
      'Expected `calls` to be an array of tool calls, got string',
    );
  });

  it('checks the options of the strategy, the loop detector and the health record', () => {
    expect(configError(() => exponentialBackoff({ factor: 0.5 })).message).toBe(
      'Expected `factor` to be a finite number from 1 and up, got `0.5` (number)',
    );
    expect(configError(() => exponentialBackoff({ base: 10 } as never)).message).toBe(
      'Unknown option `base` in the options of exponentialBackoff; did you mean `baseMs`? The options are `baseMs`, `factor`, `capMs`',
    );
    expect(configError(() => loopDetectionHook({ threshold: 0 })).message).toBe(
      'Expected `threshold` to be an integer from 1 and up, got `0` (number)',
    );
    expect(configError(() => loopDetectionHook({ treshold: 2 } as never)).message).toBe(
      'Unknown option `treshold` in the options of loopDetectionHook; did you mean `threshold`? The options are `threshold`',
    );
    expect(configError(() => new ToolHealth({ alpha: 0 })).message).toBe(
      'Expected `alpha` to be a number above 0 and at most 1, got `0` (number)',
    );
    expect(configError(() => new ToolHealth({ alfa: 0.5 } as never)).message).toBe(
      'Unknown option `alfa` in the options of ToolHealth; did you mean `alpha`? The options are `alpha`',
    );
  });

  it('names the error class and keeps the cause', () => {
    const cause = new Error('root');
    const error = new DispatchError({ code: 'aborted', message: 'stop', cause });
    expect(error.name).toBe('DispatchError');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });
});

describe('dispatcher options and getters', () => {
  it('exposes the registry it runs', () => {
    const tools = new ToolRegistry().add(new MockTool({ name: 'm' }));
    expect(new Dispatcher({ registry: tools }).registry).toBe(tools);
  });

  it('takes noCoordination, and refuses a coordinator without acquire and a bad settleTimeoutMs', () => {
    expect(() => new Dispatcher({ registry, coordinator: noCoordination })).not.toThrow();
    expect(() => new Dispatcher({ registry, coordinator: {} as never })).toThrow(
      'Expected `coordinator` to be a Coordinator ({ acquire(request) }), got `{}` (object)',
    );
    expect(() => new Dispatcher({ registry, settleTimeoutMs: 0 })).toThrow(
      'Expected `settleTimeoutMs` to be a number above 0 (or Infinity), got `0` (number)',
    );
    expect(
      () => new Dispatcher({ registry, settleTimeoutMs: Number.POSITIVE_INFINITY }),
    ).not.toThrow();
  });
});
