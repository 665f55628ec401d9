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
  const shape = shapeOf(rules);
  const required = options.required ?? [];
  const { checkedApart } = options;
  const known = checkedApart === undefined ? shape.topLevel : [...shape.topLevel, ...checkedApart];
  refuseUnknownOptions({ what, given, known, error });
  for (const { name, parent, child, rule } of shape.rules) {
    let value = given[parent];
    if (child !== undefined) {
      if (!isRecord(value)) continue;
      value = value[child];
    }
    if (value === undefined && !required.includes(name)) continue;
    checkOption({ name, value, rule, error });
    if (rule.each !== undefined)
      checkEach({ name, values: value as unknown[], each: rule.each, error });
    const children = shape.children.get(name);
    if (children !== undefined && isRecord(value)) {
      refuseUnknownOptions({
        what: `\`${name}\` of ${subject}`,
        given: value,
        known: children,
        error,
      });
    }
  }
}

/** What {@link checkOptions} reads off a rules object: the same for every call with it. */
interface RulesShape {
  /** The options that are not options of an option (no dot in their names). */
  readonly topLevel: readonly string[];
  /** Every rule, its name split at the dot. */
  readonly rules: readonly {
    readonly name: string;
    readonly parent: string;
    readonly child: string | undefined;
    readonly rule: OptionRule<unknown>;
  }[];
  /** The dotted children of each option that has some (`hooks` → `pre`, `post`). */
  readonly children: ReadonlyMap<string, readonly string[]>;
}

/**
 * The shape of each rules object met, kept: most callers pass a constant of their module, and
 * some check options once per call they serve (the Dispatcher's `dispatch`, once per batch).
 */
const shapes = new WeakMap<object, RulesShape>();

function shapeOf(rules: Readonly<Record<string, OptionRule<unknown>>>): RulesShape {
  const known = shapes.get(rules);
  if (known !== undefined) return known;
  const children = new Map<string, string[]>();
  const split = Object.entries(rules).map(([name, rule]) => {
    const [parent, child] = splitName(name);
    if (child !== undefined) children.set(parent, [...(children.get(parent) ?? []), child]);
    return { name, parent, child, rule };
  });
  const shape: RulesShape = {
    topLevel: split.filter(({ child }) => child === undefined).map(({ name }) => name),
    rules: split,
    children,
  };
  shapes.set(rules, shape);
  return shape;
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
