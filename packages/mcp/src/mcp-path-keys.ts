import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { checkOptions } from '@toolwaves/core/internal';
import { resolveLinks } from '@toolwaves/core/node';
import type { Access, AccessMode } from '@toolwaves/planner';
import type { McpClientLike } from './mcp-client-like.js';
import { invalidOptions, mcpOptionRules } from './mcp-option-rules.js';
import { mcpServerKey } from './mcp-server-key.js';
import { mcpToolOutput } from './mcp-tool-output.js';
import type { McpToolInput } from './mcp-tool-override.js';
import { withTraceContext } from './trace-context-meta.js';
import { withRequestSignal } from './with-request-signal.js';

/** A path a call touches, and how (what {@link McpPathKeys.access} maps to accesses). */
export interface McpPathUse {
  /** The path as the model wrote it: relative, absolute, `./x`, `a/../x`, `~/x`, a link. */
  readonly path: unknown;
  /** Whether the call reads or writes the path. */
  readonly mode: AccessMode;
}

/**
 * The key {@link McpPathKeys.keyOf} gives a path: its own (`exact: true`), or the server's
 * coarse key and the reason it could not do better.
 */
export type McpPathKey =
  | { readonly key: string; readonly exact: true }
  | { readonly key: string; readonly exact: false; readonly reason: string };

/** Options of the {@link McpPathKeys} constructor. */
export interface McpPathKeysOptions {
  /** The server's name, as given to `mcpTools`: keys are `mcp:<server>/<canonical path>`. */
  readonly server: string;
  /**
   * The directories the server may touch, in the server's order (relative paths resolve against
   * the first that contains them). Empty: every path gets the coarse key.
   */
  readonly roots: readonly string[];
}

/** Options of {@link McpPathKeys.fromServer}. */
export interface McpPathKeysFromServerOptions {
  /** A connected client of the server, asked for its allowed directories unless `roots` are given. */
  readonly client: McpClientLike;
  /** The server's name, as given to `mcpTools`: keys are `mcp:<server>/<canonical path>`. */
  readonly server: string;
  /**
   * The server's allowed directories when you know them (e.g. the MCP roots your client
   * announces); by default the server is asked with its `list_allowed_directories` tool.
   */
  readonly roots?: readonly string[] | undefined;
  /** Aborts the question to the server. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Per-path resource keys for a filesystem-like MCP server: every spelling of one file — relative
 * or absolute, with `.` and `..`, `~`, through a symbolic link — gets one key,
 * `mcp:<server>/<canonical absolute path>`, so calls on one file serialize and calls on
 * different files overlap. Paths resolve as the official filesystem server resolves them
 * (against its allowed directories, then links followed on this machine, so the server must
 * see the same filesystem, as a stdio server does). A path that cannot be resolved inside the
 * roots gets the coarse key `mcp:<server>`, which overlaps every path key of the server: safe,
 * never wrong.
 *
 * @example
 * ```ts
 * const keys = await McpPathKeys.fromServer({ client, server: 'fs' });
 * await addMcpTools({
 *   registry, client, server: 'fs',
 *   overrides: {
 *     write_file: { access: keys.access((input) => [{ path: input.path, mode: 'write' }]) },
 *     read_text_file: { access: keys.access((input) => [{ path: input.path, mode: 'read' }]) },
 *   },
 * });
 * ```
 * @see filesystemServerOverrides for every tool of the official filesystem server at once.
 */
export class McpPathKeys {
  /** The server's name: keys are `mcp:<server>/<canonical path>`. */
  readonly server: string;
  /** The roots as the server gave them (lexical, for resolving relative paths). */
  readonly roots: readonly string[];
  readonly #coarse: string;
  readonly #canonicalRoots: readonly string[];

  constructor(options: McpPathKeysOptions) {
    checkOptions({
      subject: 'McpPathKeys',
      options,
      rules: mcpOptionRules(['server', 'roots']),
      required: ['server', 'roots'],
      error: invalidOptions,
    });
    this.server = options.server;
    this.roots = options.roots.map((root) => resolve(root));
    this.#coarse = mcpServerKey(options.server);
    const canonical = this.roots.flatMap((root) => resolveLinks(root) ?? []);
    this.#canonicalRoots = [...new Set([...this.roots, ...canonical])];
  }

  /**
   * Asks the server for its allowed directories (`list_allowed_directories`, the official
   * filesystem server's tool) unless `roots` are given. A server that cannot say gives no
   * roots: every path then gets the coarse key.
   */
  static async fromServer(options: McpPathKeysFromServerOptions): Promise<McpPathKeys> {
    checkOptions({
      subject: 'McpPathKeys.fromServer',
      options,
      rules: mcpOptionRules(['client', 'server', 'roots', 'signal']),
      required: ['client', 'server'],
      error: invalidOptions,
    });
    const roots = options.roots ?? (await askAllowedDirectories(options));
    return new McpPathKeys({ server: options.server, roots });
  }

  /**
   * The key of one path: `mcp:<server>/<canonical path>`, or the coarse `mcp:<server>` with the
   * reason when the path is not a non-empty string, loops, or lies outside the roots.
   */
  keyOf(path: unknown): McpPathKey {
    if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) {
      return this.#fallback(`not a path: ${JSON.stringify(path) ?? String(path)}`);
    }
    if (this.roots.length === 0) return this.#fallback('the allowed directories are unknown');
    const canonical = resolveLinks(this.#absolute(path.trim()));
    if (canonical === undefined) return this.#fallback(`too many symbolic links: ${path}`);
    if (!this.#canonicalRoots.some((root) => within(canonical, root))) {
      return this.#fallback(`outside the allowed directories: ${path}`);
    }
    const slashed = sep === '/' ? canonical : canonical.split(sep).join('/');
    return { key: `${this.#coarse}${slashed.startsWith('/') ? '' : '/'}${slashed}`, exact: true };
  }

  /**
   * An `access` declaration for an `McpToolOverride`: the paths `uses` picks from a call's
   * input, each on its key (see {@link keyOf}), with its mode.
   */
  access(uses: (input: McpToolInput) => readonly McpPathUse[]): (input: McpToolInput) => Access[] {
    return (input) => uses(input).map(({ path, mode }) => ({ key: this.keyOf(path).key, mode }));
  }

  /** The path made absolute the way the server does: `~`, then the first root containing it. */
  #absolute(path: string): string {
    const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
    if (isAbsolute(expanded)) return resolve(expanded);
    for (const root of this.roots) {
      const candidate = resolve(root, expanded);
      if (this.roots.some((other) => within(candidate, other))) return candidate;
    }
    return resolve(this.roots[0] ?? '/', expanded);
  }

  #fallback(reason: string): McpPathKey {
    return { key: this.#coarse, exact: false, reason };
  }
}

/** Whether `path` is `root` or below it (both absolute and normalized). */
function within(path: string, root: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

async function askAllowedDirectories(options: McpPathKeysFromServerOptions): Promise<string[]> {
  let answer: unknown;
  try {
    answer = await withRequestSignal(options.signal, (signal) =>
      options.client.callTool(
        withTraceContext({ name: 'list_allowed_directories', arguments: {} }),
        undefined,
        signal === undefined ? {} : { signal },
      ),
    );
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    return [];
  }
  const output = mcpToolOutput(answer);
  if (output.isError === true) return [];
  return output.content
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => isAbsolute(line));
}
