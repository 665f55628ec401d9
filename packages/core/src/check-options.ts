import { refuseUnknownOptions } from '@toolwaves/planner';
import { checkOption, optionMessage } from './check-option.js';
import type { OptionRule } from './option-rule.js';

/** Options of {@link checkOptions}. */
export interface CheckOptionsOptions {
  /** Whose options these are, as the user calls it: `'fsToolsModule'`, `'the Dispatcher'`. */
  readonly subject: string;
  /** The options object as given (anything: it is checked first of all). */
  readonly options: unknown;
  /**
   * Every option there is, with what it must be. A dotted name (`'hooks.pre'`) is an option
   * of an option: checked when its parent is an object, and the parent's keys are then held to
   * its dotted children.
   */
  readonly rules: Readonly<Record<string, OptionRule<unknown>>>;
  /** What the options must be, default `'an object'` (e.g. `'an object with a \`root\`'`). */
  readonly expected?: string;
  /**
   * Options known here but checked by the caller, with a message or an error code of its own
   * (fnTool's `name`, named in its messages): never refused as unknown, not checked here.
   */
  readonly checkedApart?: readonly string[];
  /** Options that must be given (dotted ones: when their parent is). Default none. */
  readonly required?: readonly string[];
  /** Makes the package's own error from the message (code `invalid_options` or its own). */
  readonly error: (message: string) => Error;
}

/**
 * Checks a public function's options object, the same way in every toolwaves package: it must
 * be an object; a key that is not an option is refused, listing the options and, for a near
 * miss, the one meant ("did you mean `root`?"); every option given (and every required one) is
 * held to its rule, the message naming the field and the value. Defaults are the caller's.
 *
 * @example
 * ```ts
 * checkOptions({
 *   subject: 'fsToolsModule',
 *   options,
 *   rules: { root: optionRules.nonEmptyString, cachedReads: optionRules.boolean },
 *   required: ['root'],
 *   error: (message) => new FsToolsError({ code: 'invalid_options', message }),
 * });
 * // fsToolsModule({ rootDir: '.' }) throws
 * // "Unknown option `rootDir` in the options of fsToolsModule; did you mean `root`? The options are `root`, `cachedReads`"
 * ```
 * @see checkOption for one value, optionRules for the rules.
 */
export function checkOptions(options: CheckOptionsOptions): void {
  const { subject, rules, error } = options;
  const what = `the options of ${subject}`;
  const given = checkObject({
    name: 'options',
    subject: what,
    expected: options.expected ?? 'an object',
    value: options.options,
    error,
  });
  const required = new Set(options.required ?? []);
  const children = new Map<string, string[]>();
  for (const name of Object.keys(rules)) {
    const [parent, child] = splitName(name);
    if (child === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const known = [
    ...Object.keys(rules).filter((n) => !n.includes('.')),
    ...(options.checkedApart ?? []),
  ];
  refuseUnknownOptions({ what, given, known, error });
  for (const [name, rule] of Object.entries(rules)) {
    const [parent, child] = splitName(name);
    let value = given[parent];
    if (child !== undefined) {
      if (!isRecord(value)) continue;
      value = value[child];
    }
    if (value === undefined && !required.has(name)) continue;
    checkOption({ name, value, rule, error });
    if (rule.each !== undefined)
      checkEach({ name, values: value as unknown[], each: rule.each, error });
    const known = children.get(name);
    if (known !== undefined && isRecord(value)) {
      refuseUnknownOptions({ what: `\`${name}\` of ${subject}`, given: value, known, error });
    }
  }
}

/** `'hooks.pre'` → `['hooks', 'pre']`; `'mode'` → `['mode', undefined]`. */
function splitName(name: string): [string, string | undefined] {
  const dot = name.indexOf('.');
  return dot === -1 ? [name, undefined] : [name.slice(0, dot), name.slice(dot + 1)];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkObject(options: {
  readonly name: string;
  readonly subject: string;
  readonly expected: string;
  readonly value: unknown;
  readonly error: (message: string) => Error;
}): Record<string, unknown> {
  const { value } = options;
  if (isRecord(value)) return value;
  throw options.error(optionMessage(options));
}

function checkEach(options: {
  readonly name: string;
  readonly values: readonly unknown[];
  readonly each: OptionRule<unknown>;
  readonly error: (message: string) => Error;
}): void {
  options.values.forEach((value, i) => {
    checkOption({ name: `${options.name}[${i}]`, value, rule: options.each, error: options.error });
  });
}
