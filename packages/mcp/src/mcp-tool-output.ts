import type { ToolOutput } from '@toolwaves/core';

type Part = { readonly type?: unknown; readonly [key: string]: unknown };

const isRecord = (value: unknown): value is Part =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return text(part.text) ?? '';
    case 'image':
    case 'audio':
      return `[${part.type}${text(part.mimeType) === undefined ? '' : ` ${part.mimeType}`}]`;
    case 'resource': {
      const resource = isRecord(part.resource) ? part.resource : {};
      return text(resource.text) ?? `[resource ${text(resource.uri) ?? '(no uri)'}]`;
    }
    case 'resource_link':
      return `[resource link ${text(part.uri) ?? '(no uri)'}]`;
    default:
      return `[${typeof part.type === 'string' ? part.type : 'unknown'} content]`;
  }
}

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Turns the answer of `tools/call` into a toolwaves {@link ToolOutput}: the content parts as
 * text, joined with newlines (text parts as they are, a resource by its text, anything else —
 * image, audio, binary resource, link — as a short placeholder such as `[image image/png]`);
 * with no content, the `structuredContent` (or the older `toolResult`) as JSON. `isError: true`
 * stays an error, which a dispatcher answers as a soft error.
 *
 * @example
 * ```ts
 * mcpToolOutput({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], isError: true });
 * // → { content: 'a\nb', isError: true }
 * ```
 */
export function mcpToolOutput(result: unknown): ToolOutput {
  if (!isRecord(result)) return { content: json(result), isError: false };
  const isError = result.isError === true;
  const parts = Array.isArray(result.content) ? result.content.filter(isRecord) : [];
  if (parts.length > 0) return { content: parts.map(partText).join('\n'), isError };
  if (result.structuredContent !== undefined) {
    return { content: json(result.structuredContent), isError };
  }
  if ('toolResult' in result) return { content: json(result.toolResult), isError };
  return { content: '', isError };
}
