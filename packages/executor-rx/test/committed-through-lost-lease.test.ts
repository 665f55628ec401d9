import {
  type CoordinationGrant,
  type CoordinationRequest,
  type Coordinator,
  fnTool,
  type ToolContext,
  ToolRegistry,
} from '@toolwaves/core';
import { trackPromise } from '@toolwaves/core/testing';
import { describe, expect, it, vi } from 'vitest';
import {
  type CallEndEvent,
  type DispatchEvent,
  Dispatcher,
  type RecoveryStrategy,
} from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { call } from './tool-call.js';

useFakeClock();

/** A coordinator that grants at once; the test loses a grant through `lose`. */
class LosingCoordinator implements Coordinator {
  readonly losses: AbortController[] = [];
  releases = 0;

  acquire(_request: CoordinationRequest): Promise<CoordinationGrant> {
    const lost = new AbortController();
    this.losses.push(lost);
    return Promise.resolve({
      fencingToken: this.losses.length,
      lost: lost.signal,
      release: () => {
        this.releases += 1;
        return Promise.resolve();
      },
    });
  }

  lose(grant: number, reason: string): void {
    this.losses[grant]?.abort(new Error(reason));
  }
}

/** How the tool under test behaves, on the fake clock. */
interface Script {
  /** When it marks its effect committed (ms after it started), if ever. */
  readonly commitAt?: number;
  /** When it settles (ms after it started), whatever its signal says. */
  readonly settleAt: number;
  /** It rejects instead of answering. */
  readonly throws?: boolean;
}

const retryAll: RecoveryStrategy = {
  name: 'retry-everything',
  decide: () => ({ action: 'retry', delayMs: 0 }),
};

function setUp(script: Script, options: { settleTimeoutMs?: number; timeoutMs?: number } = {}) {
  const fleet = new LosingCoordinator();
  const contexts: ToolContext[] = [];
  const edit = fnTool({
    name: 'edit',
    description: 'a fenced write that ignores its signal once its commit has begun',
    concurrencySafe: true,
    resourceKey: () => 'fs:/a.txt',
    execute: (_input, context) =>
      new Promise<string>((resolve, reject) => {
        contexts.push(context);
        if (script.commitAt !== undefined) {
          setTimeout(() => context.markCommitted?.(), script.commitAt);
        }
        setTimeout(
          () => (script.throws ? reject(new Error('disk gone')) : resolve('edited a.txt')),
          script.settleAt,
        );
      }),
  });
  const events: DispatchEvent[] = [];
  const dispatcher = new Dispatcher({
    registry: new ToolRegistry().add(edit),
    coordinator: fleet,
    recovery: { strategy: retryAll },
    ...options,
  });
  const done = trackPromise(
    dispatcher.dispatch([call('e', 'edit')], { onEvent: (event) => events.push(event) }),
  );
  const callEnds = () => events.filter((e): e is CallEndEvent => e.type === 'call-end');
  return { fleet, contexts, done, callEnds };
}

describe('a lease lost after the tool committed its effect (markCommitted)', () => {
  it("answers with the tool's own result, the loss noted on call-end, never retried", async () => {
    const { fleet, contexts, done, callEnds } = setUp({ commitAt: 30, settleAt: 80 });
    await vi.advanceTimersByTimeAsync(50);
    expect(typeof contexts[0]?.markCommitted).toBe('function');
    fleet.lose(0, 'lease expired');
    expect(contexts[0]?.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(29);
    expect(done.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(done.value?.[0]).toMatchObject({
      content: 'edited a.txt',
      isError: false,
      durationMs: 80,
    });
    expect(callEnds().map((e) => [e.outcome, e.leaseLost])).toEqual([['ok', true]]);
    expect(contexts).toHaveLength(1);
    expect(fleet.releases).toBe(1);
  });

  it('marked committed only after the loss: outcome unknown at once (it had not committed when the lease was lost)', async () => {
    const { fleet, done, callEnds } = setUp({ commitAt: 60, settleAt: 70 });
    await vi.advanceTimersByTimeAsync(50);
    fleet.lose(0, 'lease expired');
    await vi.advanceTimersByTimeAsync(0);
    expect(done.value?.[0]?.content).toMatch(/^Tool `edit` lost its fleet lease while it ran/);
    expect(callEnds().map((e) => [e.outcome, e.leaseLost])).toEqual([['error', true]]);
    expect(fleet.releases).toBe(0);
    await vi.advanceTimersByTimeAsync(20);
    expect(fleet.releases).toBe(1);
  });

  it('not marked committed: outcome unknown at once, never retried', async () => {
    const { fleet, contexts, done, callEnds } = setUp({ settleAt: 80 });
    await vi.advanceTimersByTimeAsync(50);
    fleet.lose(0, 'lease expired');
    await vi.advanceTimersByTimeAsync(0);
    expect(done.value?.[0]).toMatchObject({
      content:
        'Tool `edit` lost its fleet lease while it ran (lease expired): its effect is unknown (it may or may not have taken place); it was not retried',
      isError: true,
    });
    expect(callEnds().map((e) => [e.outcome, e.leaseLost])).toEqual([['error', true]]);
    expect(contexts).toHaveLength(1);
  });

  it('marked committed, then it threw: outcome unknown', async () => {
    const { fleet, done } = setUp({ commitAt: 10, settleAt: 80, throws: true });
    await vi.advanceTimersByTimeAsync(50);
    fleet.lose(0, 'lease expired');
    await vi.advanceTimersByTimeAsync(30);
    expect(done.value?.[0]?.content).toMatch(/^Tool `edit` lost its fleet lease while it ran/);
  });

  it('a tool that does not settle within settleTimeoutMs: outcome unknown then; the grant is released when it settles', async () => {
    const { fleet, done } = setUp({ commitAt: 10, settleAt: 500 }, { settleTimeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(50);
    fleet.lose(0, 'lease expired');
    await vi.advanceTimersByTimeAsync(99);
    expect(done.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(done.value?.[0]?.content).toMatch(/^Tool `edit` lost its fleet lease while it ran/);
    expect(fleet.releases).toBe(0);
    await vi.advanceTimersByTimeAsync(350);
    expect(fleet.releases).toBe(1);
  });

  it('the attempt timeout passing while it waits answers outcome unknown, not a (retryable) timeout', async () => {
    const { fleet, contexts, done } = setUp({ commitAt: 10, settleAt: 500 }, { timeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(50);
    fleet.lose(0, 'lease expired');
    await vi.advanceTimersByTimeAsync(50);
    expect(done.value?.[0]?.content).toMatch(/^Tool `edit` lost its fleet lease while it ran/);
    expect(contexts).toHaveLength(1);
  });

  it('without a coordinator a tool has no markCommitted', async () => {
    const seen: unknown[] = [];
    const tool = fnTool({
      name: 'plain',
      description: 'plain',
      execute: (_input, context) => {
        seen.push(context.markCommitted);
        return 'ok';
      },
    });
    await new Dispatcher({ registry: new ToolRegistry().add(tool) }).dispatch([call('p', 'plain')]);
    expect(seen).toEqual([undefined]);
  });
});
