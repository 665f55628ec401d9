import { describe, expect, it } from 'vitest';
import { ToolwavesError } from '../src/index.js';
import { checkOption, describeValue, optionMessage, optionRules } from '../src/internal/index.js';

class ExampleError extends Error {
  readonly code = 'invalid_options' as const;
}
const error = (message: string) => new ExampleError(message);

function thrown(run: () => unknown): ExampleError {
  try {
    run();
  } catch (caught) {
    if (caught instanceof ExampleError) return caught;
    throw caught;
  }
  throw new Error('expected a throw');
}

describe('describeValue', () => {
  it('shows the value and its type the way p-queue does', () => {
    expect(describeValue(0)).toBe('`0` (number)');
    expect(describeValue('x')).toBe('`"x"` (string)');
    expect(describeValue(null)).toBe('`null` (null)');
    expect(describeValue(undefined)).toBe('`undefined` (undefined)');
    expect(describeValue([1, 2])).toBe('`[1,2]` (array)');
    expect(describeValue({ a: 1 })).toBe('`{"a":1}` (object)');
    expect(describeValue(10n)).toBe('`10` (bigint)');
  });

  it('cuts long values at 80 characters and survives cycles', () => {
    expect(describeValue('a'.repeat(200))).toBe(`\`"${'a'.repeat(76)}...\` (string)`);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(describeValue(cycle)).toBe('`[object Object]` (object)');
  });
});

describe('checkOption', () => {
  it('gives the p-queue message through the package error', () => {
    const caught = thrown(() =>
      checkOption({
        name: 'maxConcurrency',
        value: 0,
        rule: optionRules.integerFrom(1),
        error,
      }),
    );
    expect(caught.code).toBe('invalid_options');
    expect(caught.message).toBe(
      'Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)',
    );
  });

  it('returns a good value, and the default only for undefined', () => {
    const rule = optionRules.integerFrom(1);
    expect(checkOption({ name: 'n', value: 3, rule, error })).toBe(3);
    expect(checkOption({ name: 'n', value: undefined, rule, default: 8, error })).toBe(8);
    expect(() => checkOption({ name: 'n', value: null, rule, default: 8, error })).toThrow(
      'Expected `n` to be an integer from 1 and up, got `null` (null)',
    );
    expect(() => checkOption({ name: 'n', value: undefined, rule, error })).toThrow(
      'got `undefined` (undefined)',
    );
  });

  it('uses the subject in place of the name when given', () => {
    expect(() =>
      checkOption({
        name: 'options',
        subject: 'the options of mcpTools',
        value: 'x',
        rule: optionRules.object,
        error,
      }),
    ).toThrow('Expected the options of mcpTools to be an object, got `"x"` (string)');
  });

  it('works with any package error class', () => {
    const caught = (() => {
      try {
        checkOption({
          name: 'name',
          value: '  ',
          rule: optionRules.nonEmptyString,
          error: (message) => new ToolwavesError({ code: 'invalid_tool', message }),
        });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(caught).toBeInstanceOf(ToolwavesError);
    expect((caught as ToolwavesError).code).toBe('invalid_tool');
  });
});

describe('optionRules', () => {
  const cases: [string, { test(value: unknown): boolean }, unknown[], unknown[]][] = [
    [
      'integerFrom(1)',
      optionRules.integerFrom(1),
      [1, 2, 2 ** 40],
      [0, -1, 1.5, '1', NaN, 2 ** 60],
    ],
    ['numberFrom(0)', optionRules.numberFrom(0), [0, 0.5, 7], [-0.1, Infinity, NaN, '1']],
    ['numberAbove(0)', optionRules.numberAbove(0), [0.001, 3], [0, -1, Infinity, NaN]],
    ['boolean', optionRules.boolean, [true, false], [0, 'true', null]],
    ['string', optionRules.string, ['', 'a'], [1, null, undefined]],
    ['nonEmptyString', optionRules.nonEmptyString, ['a', ' a '], ['', '   ', 1]],
    ['function', optionRules.function, [() => 1, Math.max], [{}, 'f']],
    ['object', optionRules.object, [{}, new Map()], [null, [], 'o', 1]],
    ['array', optionRules.array, [[], [1]], [{}, 'a', null]],
    ['oneOf', optionRules.oneOf(['a', 'b']), ['a', 'b'], ['c', 1, undefined]],
  ];
  it.each(cases)('%s accepts what it says and refuses the rest', (_, rule, good, bad) => {
    for (const value of good) expect(rule.test(value), String(value)).toBe(true);
    for (const value of bad) expect(rule.test(value), String(value)).toBe(false);
  });

  it('words each rule for the message', () => {
    expect(optionRules.integerFrom(1).expected).toBe('an integer from 1 and up');
    expect(optionRules.numberFrom(0).expected).toBe('a finite number from 0 and up');
    expect(optionRules.numberAbove(0).expected).toBe('a finite number above 0');
    expect(optionRules.oneOf(['a', 'b']).expected).toBe('one of "a", "b"');
    expect(optionMessage({ name: 'x', expected: 'a thing', value: 1 })).toBe(
      'Expected `x` to be a thing, got `1` (number)',
    );
  });
});
