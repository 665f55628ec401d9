import { posix } from 'node:path';
import type { Access } from '@toolwaves/planner';
import { classifyCommand } from '@toolwaves/tools-fs';
import type { ToolLatency } from '../workloads/tool-latency.js';
import { field } from './trace.js';

/** The latency model per kind of tool (log-normal: median and the spread of its logarithm). */
export const TOOL_KIND_LATENCY = {
  local: { medianMs: 5, sigma: 0.3 },
  read: { medianMs: 40, sigma: 0.6 },
  search: { medianMs: 150, sigma: 0.8 },
  write: { medianMs: 70, sigma: 0.5 },
  shell: { medianMs: 1500, sigma: 1.0 },
  mcp: { medianMs: 550, sigma: 0.9 },
  web: { medianMs: 2500, sigma: 0.7 },
  agent: { medianMs: 25_000, sigma: 0.45 },
  other: { medianMs: 300, sigma: 0.8 },
} as const satisfies Readonly<Record<string, ToolLatency>>;

/** What kind of work a tool does (`local`, `read`, … `other`): its latency model when no duration. */
export type ToolKind = keyof typeof TOOL_KIND_LATENCY;

/** What a call of a transcript touches, as toolwaves would declare it. */
export interface TraceDeclaration {
  readonly concurrencySafe: boolean;
  /** Its reads and writes (keys like `fs:/repo/src/a.ts`); none for a keyless safe call. */
  readonly access?: readonly Access[];
  /** Its latency model when the transcript gives no duration (default `other`). */
  readonly kind?: ToolKind;
}

/** What a mapping is told besides the call's input. */
export interface MappingContext {
  /** The transcript's working directory. */
  readonly cwd: string;
  /** The key of a path: `fs:` and the absolute path; undefined for a non-string. */
  keyOf(path: unknown): string | undefined;
}

/** The declaration of one tool: a constant, or a function of the call's input. */
export type TraceMapping =
  | TraceDeclaration
  | ((input: unknown, context: MappingContext) => TraceDeclaration);

/** Declarations by tool name, as a `--map` module's default export gives them. */
export type TraceMappings = Readonly<Record<string, TraceMapping>>;

/** Touches the paths in these fields (`x?`: cwd when missing); unsafe if one is no path. */
function paths(
  mode: Access['mode'],
  kind: ToolKind,
  ...names: string[]
): (input: unknown, context: MappingContext) => TraceDeclaration {
  return (input, context) => {
    const keys = names.flatMap((name) => {
      const value = field(input, name.replace('?', ''));
      if (name.endsWith('?') && value === undefined) return [context.keyOf('.')];
      return Array.isArray(value)
        ? value.map((path) => context.keyOf(path))
        : [context.keyOf(value)];
    });
    if (keys.some((key) => key === undefined)) return { concurrencySafe: false, kind };
    return { concurrencySafe: true, access: keys.map((key) => ({ key: key!, mode })), kind };
  };
}

/**
 * A shell command, declared as `run_command` declares it in a sandbox rooted at the transcript's
 * working directory: `classifyCommand` (tools-fs, the same allowlist) with its reads as keys; a
 * read outside that directory makes it unsafe (the sandbox would not show it). A command that is
 * not read-only holds the whole directory (a write on its key), as `run_command` does.
 */
const shell: TraceMapping = (input, context) => {
  const command = field(input, 'command');
  const found = classifyCommand(typeof command === 'string' ? command : '');
  const root = context.keyOf('.');
  const unsafe: TraceDeclaration = {
    concurrencySafe: false,
    ...(root === undefined ? {} : { access: [{ key: root, mode: 'write' }] }),
    kind: 'shell',
  };
  if (!found.concurrencySafe || root === undefined) return unsafe;
  const keys = found.reads.map((path) => context.keyOf(path));
  if (keys.some((key) => key === undefined || (key !== root && !key.startsWith(`${root}/`)))) {
    return unsafe;
  }
  return {
    concurrencySafe: true,
    access: keys.map((key) => ({ key: key!, mode: 'read' })),
    kind: 'shell',
  };
};

/** One mapping for each of the space-separated tool names. */
const each = (names: string, mapping: TraceMapping): Record<string, TraceMapping> =>
  Object.fromEntries(names.split(' ').map((name) => [name, mapping]));

/**
 * The built-in declarations: Claude Code's tools, toolwaves' fs tools (and `run_command`),
 * and the MCP filesystem server's tools (also as `mcp__<server>__<tool>`). Shell commands
 * (`Bash`, `run_command`) are declared by `classifyCommand`. Anything else is unknown: not
 * concurrency-safe.
 */
export const BUILT_IN_MAPPINGS: TraceMappings = {
  // Claude Code
  Read: paths('read', 'read', 'file_path'),
  NotebookRead: paths('read', 'read', 'notebook_path'),
  ...each('Write Edit MultiEdit', paths('write', 'write', 'file_path')),
  NotebookEdit: paths('write', 'write', 'notebook_path'),
  ...each('Glob Grep glob grep', paths('read', 'search', 'path?')),
  ...each('BashOutput list_allowed_directories', { concurrencySafe: true, kind: 'local' }),
  ...each('KillShell KillBash ExitPlanMode', { concurrencySafe: false, kind: 'local' }),
  ...each('SlashCommand AskUserQuestion', { concurrencySafe: false, kind: 'other' }),
  TodoWrite: {
    concurrencySafe: true,
    access: [{ key: 'claude:todos', mode: 'write' }],
    kind: 'local',
  },
  Task: { concurrencySafe: true, kind: 'agent' },
  ...each('WebFetch WebSearch', { concurrencySafe: true, kind: 'web' }),
  Skill: { concurrencySafe: true, access: [{ key: 'claude:skills', mode: 'read' }], kind: 'local' },
  ...each('Bash run_command', shell),
  // toolwaves fs tools and the MCP filesystem server
  ...each(
    'LS read_file read_text_file read_media_file list_directory list_directory_with_sizes directory_tree stat get_file_info',
    paths('read', 'read', 'path'),
  ),
  read_multiple_files: paths('read', 'read', 'paths'),
  list_dir: paths('read', 'read', 'path?'),
  search_files: paths('read', 'search', 'path'),
  ...each('write_file create_directory delete_file', paths('write', 'write', 'path')),
  edit_file: (input, context) =>
    paths(field(input, 'dryRun') === true ? 'read' : 'write', 'write', 'path')(input, context),
  move_file: (input, context) =>
    (field(input, 'source') === undefined
      ? paths('write', 'write', 'from', 'to')
      : paths('write', 'write', 'source', 'destination'))(input, context),
};

/** A call's declaration: the user's mapping, else the built-in one, else unknown. */
export function declareCall(
  call: { readonly name: string; readonly input: unknown },
  options: { readonly cwd: string; readonly mappings?: TraceMappings },
): TraceDeclaration & { readonly known: boolean } {
  const context: MappingContext = {
    cwd: options.cwd,
    keyOf: (path) => {
      if (typeof path !== 'string' || path === '' || path.includes('\0')) return undefined;
      return `fs:${posix.resolve(options.cwd, path)}`;
    },
  };
  const mcpTool = /^mcp__[^_]+(?:_[^_]+)*__(.+)$/.exec(call.name)?.[1];
  const find = (table: TraceMappings | undefined, name: string | undefined) =>
    name !== undefined && table !== undefined && Object.hasOwn(table, name)
      ? table[name]
      : undefined;
  const mapping =
    find(options.mappings, call.name) ??
    find(BUILT_IN_MAPPINGS, call.name) ??
    find(BUILT_IN_MAPPINGS, mcpTool);
  const fallback = {
    concurrencySafe: false,
    kind: mcpTool === undefined ? 'other' : 'mcp',
    known: false,
  } as const;
  if (mapping === undefined) return fallback;
  try {
    const declaration: TraceDeclaration | undefined =
      typeof mapping === 'function' ? mapping(call.input, context) : mapping;
    if (typeof declaration?.concurrencySafe !== 'boolean') return fallback;
    return { ...declaration, known: true };
  } catch {
    return fallback;
  }
}
