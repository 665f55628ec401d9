import { checkOptions, optionRules } from '@toolwaves/core/internal';
import { invalidConfig } from './dispatch-error.js';
import type { PreHook } from './dispatch-hooks.js';

/** Options of {@link loopDetectionHook}. */
export interface LoopDetectionOptions {
  /** How many identical calls are allowed; the next one aborts. Integer ≥ 1, default 3. */
  readonly threshold?: number;
}

/**
 * The built-in loop detector, a pre hook: the first attempt with the same tool and canonical
 * input past `threshold` (across dispatches) aborts the batch with `loop_detected`.
 * @throws DispatchError `invalid_config` for a bad `threshold` or an unknown option.
 * @example
 * ```ts
 * const dispatcher = new Dispatcher({ registry, hooks: { pre: [loopDetectionHook({ threshold: 3 })] } });
 * ```
 * @see PreHook
 */
export function loopDetectionHook(options: LoopDetectionOptions = {}): PreHook {
  checkOptions({
    subject: 'loopDetectionHook',
    options,
    rules: { threshold: optionRules.integerFrom(1) },
    error: invalidConfig,
  });
  const { threshold = 3 } = options;
  const seen = new Map<string, number>();
  return ({ tool, input, attempt }) => {
    if (attempt !== 1) return undefined;
    const text = canonicalJson(input);
    const key = `${tool.name}\u0000${text}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count <= threshold) return undefined;
    return {
      action: 'abort',
      code: 'loop_detected',
      reason: `Loop detected: \`${tool.name}\` was called ${count} times with the same input ${text.length > 80 ? `${text.slice(0, 77)}...` : text} (threshold ${threshold})`,
    };
  };
}

/** JSON with object keys sorted at every depth. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? 'undefined';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}
