import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../src/index.js';
import { checkOptions, describeValue, optionRules } from '../src/internal/index.js';

class ExampleError extends Error {
  readonly code = 'invalid_options' as const;
}
const error = (message: string) => new ExampleError(message);

const rules = {
  root: optionRules.nonEmptyString,
  cachedReads: optionRules.boolean,
  maxConcurrency: optionRules.integerFrom(1),
  hooks: optionRules.object,
  'hooks.pre': optionRules.arrayOf('an array of functions', optionRules.function),
  'hooks.post': optionRules.arrayOf('an array of functions', optionRules.function),
};
const check = (options: unknown) =>
  checkOptions({ subject: 'example', options, rules, required: ['root'], error });

describe('describeValue of class instances', () => {
  it('names the class, with the right article', () => {
    expect(describeValue(new ToolRegistry())).toBe('a ToolRegistry');
    expect(describeValue(new Error('x'))).toBe('an Error');
    expect(describeValue(Object.create(null))).toBe('`{}` (object)');
  });
});

describe('checkOptions', () => {
  it('accepts good options, with optional ones left out', () => {
    expect(() => check({ root: '/tmp' })).not.toThrow();
    expect(() => check({ root: '/tmp', hooks: { pre: [() => undefined] } })).not.toThrow();
  });

  it('names a missing or non-object options argument', () => {
    expect(() => check(undefined)).toThrow(
      'Expected the options of example to be an object, got `undefined` (undefined)',
    );
    expect(() => check([1])).toThrow(
      'Expected the options of example to be an object, got `[1]` (array)',
    );
  });

  it('refuses an unknown key, suggesting the near miss and listing the options', () => {
    expect(() => check({ rootDir: '/tmp' })).toThrow(
      'Unknown option `rootDir` in the options of example; did you mean `root`? The options are `root`, `cachedReads`, `maxConcurrency`, `hooks`',
    );
    expect(() => check({ root: '/tmp', colour: 1 })).toThrow(
      'Unknown option `colour` in the options of example; the options are `root`, `cachedReads`, `maxConcurrency`, `hooks`',
    );
  });

  it('refuses an unknown key of an option that has options of its own', () => {
    expect(() => check({ root: '/tmp', hooks: { pree: [] } })).toThrow(
      'Unknown option `pree` in `hooks` of example; did you mean `pre`? The options are `pre`, `post`',
    );
  });

  it('names the field and the value of a wrong type, and a missing required one', () => {
    expect(() => check({ root: '/tmp', maxConcurrency: 0 })).toThrow(
      'Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)',
    );
    expect(() => check({ cachedReads: true })).toThrow(
      'Expected `root` to be a non-empty string, got `undefined` (undefined)',
    );
    expect(() => check({ root: '/tmp', hooks: { post: [() => 1, 'x'] } })).toThrow(
      'Expected `hooks.post[1]` to be a function, got `"x"` (string)',
    );
  });

  it('names an argument of the wrong kind', () => {
    const dispatcher = optionRules.withMethods('a Dispatcher', ['openTurn', 'dispatch']);
    expect(() =>
      checkOptions({
        subject: 'example',
        options: { dispatcher: new ToolRegistry() },
        rules: { dispatcher },
        error,
      }),
    ).toThrow('Expected `dispatcher` to be a Dispatcher, got a ToolRegistry');
  });

  it('throws the package error', () => {
    expect(() => check({})).toThrow(ExampleError);
  });
});
