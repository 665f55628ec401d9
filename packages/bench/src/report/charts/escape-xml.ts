/**
 * Escapes text for XML/HTML content and attribute values (`&`, `<`, `>`, `"`, `'`).
 *
 * @example escapeXml('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
