import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallsInFlight, type StoppableCall } from '../src/calls-in-flight.js';

/** A call that only remembers whether it has ended. */
class FakeCall implements StoppableCall {
  ended = false;
  constructor(readonly name: number) {}
  stop(): void {
    this.ended = true;
  }
  abandon(): void {
    this.ended = true;
  }
}

describe('CallsInFlight', () => {
  it('lists the calls still running in the order they started, whatever ended in between', () => {
    // Steps: a number ≥ 0 starts a new call; -k ends the k-th oldest call still running.
    const step = fc.oneof(
      fc.constant(0),
      fc.integer({ min: 1, max: 40 }).map((k) => -k),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 400 }), (steps) => {
        const inFlight = new CallsInFlight();
        // The reference: a plain array of the running calls in start order.
        const reference: FakeCall[] = [];
        let started = 0;
        for (const move of steps) {
          if (move === 0) {
            const call = new FakeCall(started++);
            inFlight.add(call);
            reference.push(call);
          } else if (reference.length > 0) {
            const [call] = reference.splice((-move - 1) % reference.length, 1);
            call!.ended = true;
            inFlight.ended();
          }
          expect(inFlight.size).toBe(reference.length);
        }
        expect(inFlight.running()).toEqual(reference);
      }),
      { numRuns: 500 },
    );
  });

  it('after a long run of starts and ends, lists exactly the calls still running', () => {
    const inFlight = new CallsInFlight();
    const running: FakeCall[] = [];
    for (let i = 0; i < 10_000; i++) {
      const call = new FakeCall(i);
      inFlight.add(call);
      running.push(call);
      if (running.length > 8) {
        running.shift()!.ended = true;
        inFlight.ended();
      }
    }
    expect(inFlight.running()).toEqual(running);
    expect(inFlight.size).toBe(8);
  });
});
