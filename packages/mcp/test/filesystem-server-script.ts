import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The executable script of the official `@modelcontextprotocol/server-filesystem`, from its
 * package.json `bin`: the tests spawn it from this package's node_modules (no global install).
 */
export function serverScript(): string {
  const manifest = require.resolve('@modelcontextprotocol/server-filesystem/package.json');
  const { bin } = require(manifest) as { bin: Record<string, string> };
  const script = bin['mcp-server-filesystem'];
  if (script === undefined) throw new Error('the server package has no mcp-server-filesystem bin');
  return join(dirname(manifest), script);
}
