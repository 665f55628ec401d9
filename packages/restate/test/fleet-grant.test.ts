import {
  type CoordinationGrant,
  type CoordinationRequest,
  fnTool,
  type Tool,
} from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { acquireGrant, type GrantedRun, runUnderGrant } from '../src/fleet-grant.js';
import type { StepOutcome } from '../src/step-outcome.js';

/** A grant whose loss the test decides, recording when it was given back. */
function testGrant(fencingToken = 7) {
  const lost = new AbortController();
  const events: string[] = [];
  const grant: CoordinationGrant = {
    fencingToken,
    lost: lost.signal,
    release: async () => {
      events.push('released');
    },
  };
  return { grant, lose: (reason: unknown) => lost.abort(reason), events };
}

/** A tool run the test settles by hand. */
function heldRun(events: string[]) {
  let finish: (outcome: StepOutcome) => void = () => undefined;
  let seen: GrantedRun | undefined;
  const run = (granted: GrantedRun) => {
    seen = granted;
    return new Promise<StepOutcome>((resolve) => {
      finish = (outcome) => {
        events.push('tool settled');
        resolve(outcome);
      };
    });
  };
  return { run, finish: (outcome: StepOutcome) => finish(outcome), granted: () => seen };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const signal = new AbortController().signal;

describe('a tool run under a fleet grant, inside a durable step', () => {
  it('gets the fencing token and answers its own result; the grant goes back after the tool settled', async () => {
    const { grant, events } = testGrant(42);
    const held = heldRun(events);
    const answer = runUnderGrant({ grant, signal, run: held.run });
    await tick();
    expect(held.granted()?.fencingToken).toBe(42);
    held.finish({ kind: 'text', content: 'done' });
    expect(await answer).toEqual({ kind: 'text', content: 'done' });
    expect(events).toEqual(['tool settled', 'released']);
  });

  it('a lease lost mid-run stops the tool, waits for it, and answers outcome unknown for the lost lease', async () => {
    const { grant, lose, events } = testGrant();
    const held = heldRun(events);
    let answered = false;
    const answer = runUnderGrant({ grant, signal, run: held.run }).finally(() => {
      answered = true;
    });
    await tick();
    lose(new Error('lease expired'));
    await tick();
    expect(held.granted()?.signal.aborted).toBe(true);
    // Nothing conflicting may start while the tool still runs: no answer yet.
    expect(answered).toBe(false);
    held.finish({ kind: 'text', content: 'done anyway' });
    expect(await answer).toEqual({
      kind: 'unknown',
      cause: 'lost its fleet lease while it ran (lease expired)',
    });
    expect(events).toEqual(['tool settled', 'released']);
  });

  it('a lease lost after the tool passed its fenced commit answers the tool’s own result', async () => {
    const { grant, lose, events } = testGrant();
    const held = heldRun(events);
    const answer = runUnderGrant({ grant, signal, run: held.run });
    await tick();
    held.granted()?.markCommitted();
    lose(new Error('lease expired'));
    await tick();
    held.finish({ kind: 'text', content: 'committed' });
    expect(await answer).toEqual({ kind: 'text', content: 'committed' });
  });

  it('the step’s own signal (the turn stopped) reaches the tool', async () => {
    const { grant, events } = testGrant();
    const held = heldRun(events);
    const stop = new AbortController();
    const answer = runUnderGrant({ grant, signal: stop.signal, run: held.run });
    await tick();
    stop.abort(new Error('turn failed'));
    expect(held.granted()?.signal.aborted).toBe(true);
    held.finish({ kind: 'threw', message: 'stopped' });
    expect(await answer).toEqual({ kind: 'threw', message: 'stopped' });
  });
});

describe('asking the coordinator for a durable call', () => {
  const requests: CoordinationRequest[] = [];
  const granting = {
    acquire: async (request: CoordinationRequest) => {
      requests.push(request);
      return testGrant().grant;
    },
  };
  const read = fnTool({
    name: 'read',
    description: 'read',
    concurrencySafe: true,
    access: [{ key: 'note:/a', mode: 'read' }],
    execute: () => 'a',
  }) as Tool;
  const bump = fnTool({ name: 'bump', description: 'bump', execute: () => '1' }) as Tool;

  it('claims what the call declares; a call that is not concurrency-safe holds the namespace', async () => {
    await acquireGrant({
      coordinator: granting,
      call: { id: 'c1', name: 'read', input: {} },
      tool: read,
      input: {},
      signal,
    });
    await acquireGrant({
      coordinator: granting,
      call: { id: 'c2', name: 'bump', input: {} },
      tool: bump,
      input: {},
      signal,
    });
    expect(
      requests.map(({ toolCallId, access, exclusive }) => ({ toolCallId, access, exclusive })),
    ).toEqual([
      { toolCallId: 'c1', access: [{ key: 'note:/a', mode: 'read' }], exclusive: undefined },
      { toolCallId: 'c2', access: [], exclusive: true },
    ]);
  });

  it('a refusal is an answer and the tool does not run', async () => {
    const refusing = { acquire: async () => Promise.reject(new Error('redis unreachable')) };
    const answer = await acquireGrant({
      coordinator: refusing,
      call: { id: 'c3', name: 'read', input: {} },
      tool: read,
      input: {},
      signal,
    });
    expect(answer).toEqual({
      refused: {
        kind: 'output',
        content:
          'Tool `read` did not run: the fleet coordinator could not grant its accesses: redis unreachable',
        isError: true,
      },
    });
  });
});
