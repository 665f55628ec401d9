import type { ToolCall } from '@toolwaves/core';
import type { PlanNode } from '@toolwaves/planner';

/**
 * A short label for a call in charts: the tool and its main argument
 * (`read_file src/core/file0.ts`, `grep TODO in src/ui`, `move_file tmp/a → tmp/b`), or for a
 * seed-model node its key (`#4 key a`, `#3 keyless`, `#2 unsafe`).
 *
 * @example callLabel({ node, call: { id: 'c', name: 'stat', input: { path: 'a.ts' } } }); // 'stat a.ts'
 */
export function callLabel(options: { node: PlanNode; call?: ToolCall | undefined }): string {
  const { node, call } = options;
  if (call === undefined) {
    if (!node.parallelizable) return `#${node.index} unsafe`;
    return node.resourceKey === undefined
      ? `#${node.index} keyless`
      : `#${node.index} key ${node.resourceKey}`;
  }
  const input = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<
    string,
    unknown
  >;
  const text = (key: string): string | undefined =>
    typeof input[key] === 'string' ? (input[key] as string) : undefined;
  const from = text('from');
  const to = text('to');
  const pattern = text('pattern');
  const path = text('path');
  if (from !== undefined && to !== undefined) return `${call.name} ${from} → ${to}`;
  if (pattern !== undefined)
    return `${call.name} ${pattern}${path === undefined ? '' : ` in ${path}`}`;
  return path === undefined ? call.name : `${call.name} ${path}`;
}
