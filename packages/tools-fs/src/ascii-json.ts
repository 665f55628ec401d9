const NON_ASCII = /[\u007f-\uffff]/;

/**
 * A string as JSON with every non-ASCII character escaped (`\u00e9`): one byte per character,
 * so its length is its size in a file, and a read that splits the file anywhere never cuts a
 * character in two. `JSON.parse` reads it back as the same string.
 *
 * @example asciiJson('fs:/tmp/café.txt') // '"fs:/tmp/caf\\u00e9.txt"'
 */
export function asciiJson(text: string): string {
  const json = JSON.stringify(text);
  if (!NON_ASCII.test(json)) return json;
  return json.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
