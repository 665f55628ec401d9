import { fnTool, type ToolCall, ToolRegistry } from '@toolwaves/core';
import { from } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DispatchError, Dispatcher } from '../src/index.js';

const seen: unknown[] = [];
const registry = new ToolRegistry()
  .add(
    fnTool({
      name: 'read',
      description: 'reads',
      input: z.strictObject({ path: z.string() }),
      concurrencySafe: true,
      execute: (input) => {
        seen.push(input);
        return `read ${input.path}`;
      },
    }),
  )
  .add(
    fnTool({
      name: 'fail',
      description: 'always fails',
      concurrencySafe: true,
      execute: () => ({ content: 'no', isError: true }),
    }),
  );
const read = (id: string, extra: Partial<ToolCall> = {}): ToolCall => ({
  id,
  name: 'read',
  input: { path: id },
  ...extra,
});

const refusal = async (promise: Promise<unknown>): Promise<DispatchError> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DispatchError)) throw new Error(`expected a DispatchError, got ${error}`);
  return error;
};

describe('ToolCall.after — refused ids', () => {
  const dispatcher = new Dispatcher({ registry, mode: 'parallel' });

  it('an unknown id refuses the whole batch before anything runs, naming the call and the id', async () => {
    seen.length = 0;
    const error = await refusal(dispatcher.dispatch([read('a'), read('b', { after: ['zz'] })]));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe(
      'call `b` (call 1, `read`) names `zz` in `after`, which no earlier call of the turn has: a call may only follow calls written before it in the turn',
    );
    expect(seen).toEqual([]);
  });

  it('a call naming itself', async () => {
    const error = await refusal(dispatcher.dispatch([read('a', { after: ['a'] })]));
    expect(error.message).toBe(
      'call `a` (call 0, `read`) names itself in `after`: a call cannot follow itself',
    );
  });

  it('a later call, and a cycle', async () => {
    const later = await refusal(dispatcher.dispatch([read('a', { after: ['b'] }), read('b')]));
    expect(later.message).toBe(
      'call `a` (call 0, `read`) names `b` in `after`, a later call of the turn (call 1): a call may only follow calls written before it in the turn',
    );
    const cycle = await refusal(
      dispatcher.dispatch([
        read('a', { after: ['c'] }),
        read('b', { after: ['a'] }),
        read('c', { after: ['b'] }),
      ]),
    );
    expect(cycle.message).toBe(
      'call `a` (call 0, `read`) names `c` in `after`, and the edges form a cycle (`a` → `c` → `b` → `a`): a call may only follow calls written before it in the turn',
    );
  });

  it('`after` that is not an array of ids', async () => {
    const error = await refusal(
      dispatcher.dispatch([read('a'), { ...read('b'), after: 'a' } as unknown as ToolCall]),
    );
    expect(error.message).toBe(
      'Expected `after` of call `b` (call 1, `read`) to be an array of call ids, got `"a"` (string)',
    );
  });

  it('a stream fails where the call arrives (`source_failed`), naming the call and the id', async () => {
    const error = await refusal(
      dispatcher.dispatchStream(from([read('a'), read('b', { after: ['c'] }), read('c')])),
    );
    expect(error.code).toBe('source_failed');
    expect(error.message).toBe(
      'call `b` (call 1, `read`) names `c` in `after`, which no earlier call of the turn has: a call may only follow calls written before it in the turn',
    );
  });
});

describe('ToolCall.after — answers', () => {
  it("under 'skip-dependents' a failed prerequisite skips the call, and its answer says why", async () => {
    const dispatcher = new Dispatcher({ registry, mode: 'eager', onFailure: 'skip-dependents' });
    const calls: ToolCall[] = [
      { id: 'f', name: 'fail', input: {} },
      read('a', { after: ['f'] }),
      read('b'),
    ];
    const results = await dispatcher.dispatch(calls);
    expect(results.map((result) => result.content)).toEqual([
      'no',
      'Call `a` (`read`) did not run: it follows (`after`) call `f` (`fail`), which failed',
      'read b',
    ]);
  });
});

describe('modelOrdering — wait_for_previous', () => {
  it('is taken out of the input before validation (a strict schema passes)', async () => {
    seen.length = 0;
    const dispatcher = new Dispatcher({ registry, mode: 'eager', modelOrdering: true });
    const results = await dispatcher.dispatch([
      read('a'),
      { id: 'b', name: 'read', input: { path: 'b', wait_for_previous: true } },
      { id: 'c', name: 'read', input: { path: 'c', wait_for_previous: false } },
    ]);
    expect(results.map((result) => result.content)).toEqual(['read a', 'read b', 'read c']);
    expect(seen).toContainEqual({ path: 'b' });
    expect(seen).toContainEqual({ path: 'c' });
  });

  it('a value that is not a boolean makes the input invalid, naming the field and the value', async () => {
    const dispatcher = new Dispatcher({ registry, modelOrdering: true });
    const [result] = await dispatcher.dispatch([
      { id: 'a', name: 'read', input: { path: 'a', wait_for_previous: 'yes' } },
    ]);
    expect(result).toMatchObject({
      isError: true,
      content:
        'Invalid input for tool `read`: `wait_for_previous`: expected a boolean, got `"yes"` (string)',
    });
  });

  it('is off by default: the field reaches validation like any other', async () => {
    const dispatcher = new Dispatcher({ registry });
    expect(dispatcher.modelOrdering).toBe(false);
    const [result] = await dispatcher.dispatch([
      { id: 'a', name: 'read', input: { path: 'a', wait_for_previous: true } },
    ]);
    expect(result!.isError).toBe(true);
    expect(result!.content).toContain('wait_for_previous');
  });
});
