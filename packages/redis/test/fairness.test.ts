import type { CoordinationGrant } from '@toolwaves/core';
import { expect, it } from 'vitest';
import { coordinatorFor, describeWithRedis, freshNamespace, lockRequest } from './fleet-fixture.js';

type Step =
  | { kind: 'ask'; who: string; seq: number }
  | { kind: 'granted'; who: string; seq: number }
  | { kind: 'released'; who: string; seq: number };

describeWithRedis('fleet locks: fairness', () => {
  /*
   * The rule: requests queue in one FIFO per namespace and a request is granted only when no
   * holder and no earlier-queued waiter conflicts with it. So a writer waits at most for the
   * requests queued before it; no reader that asks after the writer is granted before the
   * writer has released. Three readers keep the key read-held at all times (each re-asks as
   * soon as it releases, and they overlap), which would starve a writer under "grant whatever
   * does not conflict with the holders".
   */
  it('a writer behind a continuous stream of readers gets the lock after at most the requests queued before it', async () => {
    const coordinator = coordinatorFor({ namespace: freshNamespace() });
    const steps: Step[] = [];
    let seq = 0;
    let writerDone = false;
    let readerGrants = 0;
    let wake: () => void = () => undefined;
    const enoughReads = new Promise<void>((resolve) => {
      wake = resolve;
    });

    const reader = async (name: string): Promise<void> => {
      while (!writerDone) {
        const mine = ++seq;
        steps.push({ kind: 'ask', who: name, seq: mine });
        const grant = await coordinator.acquire(lockRequest(['r fs:/repo/src']));
        steps.push({ kind: 'granted', who: name, seq: mine });
        readerGrants += 1;
        if (readerGrants === 12) wake();
        await new Promise((resolve) => setTimeout(resolve, 3));
        steps.push({ kind: 'released', who: name, seq: mine });
        await grant.release();
      }
    };
    const readers = [reader('r1'), reader('r2'), reader('r3')];
    await enoughReads;

    const writerSeq = ++seq;
    steps.push({ kind: 'ask', who: 'writer', seq: writerSeq });
    const grant: CoordinationGrant = await coordinator.acquire(
      lockRequest(['w fs:/repo/src/a.ts']),
    );
    steps.push({ kind: 'granted', who: 'writer', seq: writerSeq });
    await new Promise((resolve) => setTimeout(resolve, 3));
    steps.push({ kind: 'released', who: 'writer', seq: writerSeq });
    await grant.release();
    writerDone = true;
    await Promise.all(readers);

    const at = (kind: Step['kind'], who: string, s: number) =>
      steps.findIndex((step) => step.kind === kind && step.who === who && step.seq === s);
    const writerAsked = at('ask', 'writer', writerSeq);
    const writerGranted = at('granted', 'writer', writerSeq);
    const writerReleased = at('released', 'writer', writerSeq);
    expect(writerGranted).toBeGreaterThan(writerAsked);

    // the stream really was continuous: readers were still asking while the writer waited
    const askedMeanwhile = steps
      .slice(writerAsked + 1, writerGranted)
      .filter((step) => step.kind === 'ask');
    expect(askedMeanwhile.length).toBeGreaterThan(0);

    // no read asked after the writer was granted before the writer released
    const readGrants = steps.filter((step) => step.kind === 'granted' && step.who !== 'writer');
    for (const step of readGrants.filter((s) => s.seq > writerSeq)) {
      expect(steps.indexOf(step)).toBeGreaterThan(writerReleased);
    }
    // the bound: between its ask and its grant, only reads asked before it were granted,
    // at most one per reader (each has at most one request outstanding)
    const grantedWhileWaiting = steps
      .slice(writerAsked + 1, writerGranted)
      .filter((step) => step.kind === 'granted');
    expect(grantedWhileWaiting.every((step) => step.seq < writerSeq)).toBe(true);
    expect(grantedWhileWaiting.length).toBeLessThanOrEqual(3);
  });
});
