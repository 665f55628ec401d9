import { outcomeUnknownText } from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { cutByCrashText } from '../src/index.js';
import { outcomeOf, replayOutcome, thrownOutcome } from '../src/step-outcome.js';

const names = { toolName: 'bump', callId: 'c7' };

describe('journaled outcomes', () => {
  it('give back what the tool answered, through JSON', () => {
    const roundTrip = (output: unknown) =>
      replayOutcome(JSON.parse(JSON.stringify(outcomeOf(output))), names);
    expect(roundTrip('done')).toBe('done');
    expect(roundTrip({ content: 'no', isError: true })).toEqual({ content: 'no', isError: true });
    expect(roundTrip({ content: 'ok' })).toEqual({ content: 'ok', isError: false });
    expect(roundTrip({ content: 'timed out after sending', outcomeUnknown: true })).toEqual({
      content: 'timed out after sending',
      isError: true,
      outcomeUnknown: true,
    });
    expect(roundTrip(42)).toBe(42);
  });

  it('throw again what the tool threw, with its message', () => {
    expect(() => replayOutcome(thrownOutcome(new Error('disk full')), names)).toThrow('disk full');
  });

  it('answer "outcome unknown" in the words of a lost fleet lease, naming the tool and call, flagged for the Dispatcher', () => {
    expect(replayOutcome({ kind: 'unknown' }, names)).toEqual({
      content: cutByCrashText(names),
      isError: true,
      outcomeUnknown: true,
    });
    expect(cutByCrashText(names)).toBe(
      'Tool `bump` was cut off by a crash while it ran (call `c7`): its effect is unknown (it may or may not have taken place); it was not retried',
    );
    expect(
      replayOutcome({ kind: 'unknown', cause: 'lost its fleet lease while it ran' }, names),
    ).toEqual({
      content: outcomeUnknownText({ toolName: 'bump', cause: 'lost its fleet lease while it ran' }),
      isError: true,
      outcomeUnknown: true,
    });
  });
});
