import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolRegistry, toOpenAITools, toolJsonSchema } from '@toolwaves/core';
import { validateInput } from '@toolwaves/core/internal';
import { describe, expect, it } from 'vitest';
import { addMcpTools, McpToolsError, mcpServerKey, mcpTools } from '../src/index.js';
import { connect, fsServer, type Handled } from './fixtures.js';

const fs = async (): Promise<Client> => connect(fsServer([] as Handled[]));

async function rejection(promise: Promise<unknown>): Promise<McpToolsError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpToolsError);
  return error as McpToolsError;
}

describe('mcpTools: listing', () => {
  it('wraps every listed tool with its description and the server JSON Schema', async () => {
    const client = await fs();
    const listed = (await client.listTools()).tools;
    const tools = await mcpTools({ client, server: 'fs' });

    expect(tools.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
    expect(tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'write_file',
      'list_dir',
      'shout',
      'explode',
    ]);
    for (const [i, tool] of tools.entries()) {
      const { $schema: _dialect, ...schema } = listed[i]!.inputSchema;
      expect(tool.server).toBe('fs');
      expect(tool.description).toBe(listed[i]!.description);
      expect(tool.jsonSchema).toEqual(listed[i]!.inputSchema);
      // what every provider adapter sends to the model is the server's schema
      expect(toolJsonSchema(tool)).toEqual(schema);
    }
    const readFile = toolJsonSchema(tools[0]!);
    expect(readFile).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string', description: 'File path' }, ms: { type: 'number' } },
      required: ['path'],
    });

    const registry = new ToolRegistry();
    for (const tool of tools) registry.add(tool);
    const openai = toOpenAITools(registry).find((def) => def.function.name === 'read_file');
    expect(openai?.function.parameters).toEqual(readFile);
  });

  it('follows nextCursor across pages and refuses a repeated cursor', async () => {
    const pages: Record<string, { tools: { name: string }[]; nextCursor?: string }> = {
      '': { tools: [{ name: 'a' }, { name: 'b' }], nextCursor: 'p2' },
      p2: { tools: [{ name: 'c' }], nextCursor: 'p3' },
      p3: { tools: [{ name: 'd' }] },
    };
    const paged = (loop: boolean): Server => {
      const server = new Server(
        { name: 'paged', version: '1.0.0' },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler(ListToolsRequestSchema, (request) => {
        const page = pages[request.params?.cursor ?? '']!;
        return {
          tools: page.tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' as const } })),
          ...(loop && page.nextCursor === undefined
            ? { nextCursor: 'p2' }
            : page.nextCursor === undefined
              ? {}
              : { nextCursor: page.nextCursor }),
        };
      });
      return server;
    };

    const tools = await mcpTools({ client: await connect(paged(false)), server: 'paged' });
    expect(tools.map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd']);

    const error = await rejection(
      mcpTools({ client: await connect(paged(true)), server: 'paged' }),
    );
    expect(error.code).toBe('list_failed');
    expect(error.message).toBe('MCP server `paged` repeated the tools/list cursor `p2`');
  });

  it('reports a server that cannot list tools as list_failed, with the client error as cause', async () => {
    const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
    const error = await rejection(mcpTools({ client: await connect(server), server: 'bare' }));
    expect(error.code).toBe('list_failed');
    expect(error.message).toMatch(
      /^Could not list the tools of MCP server `bare`: .*Method not found/,
    );
    expect(error.cause).toBeInstanceOf(Error);
  });
});

describe('mcpTools: declarations', () => {
  const calls = [
    { id: '1', name: 'read_file', input: { path: 'a' } },
    { id: '2', name: 'write_file', input: { path: 'a', text: 'x' } },
    { id: '3', name: 'list_dir', input: { path: '.' } },
  ];

  it('reads mcp:<server> when readOnlyHint is true, writes it otherwise, always concurrency-safe', async () => {
    const registry = new ToolRegistry();
    await addMcpTools({ registry, client: await fs(), server: 'fs', trust: 'annotations' });
    expect(mcpServerKey('fs')).toBe('mcp:fs');
    expect(registry.toPlanNodes(calls)).toEqual([
      { index: 0, parallelizable: true, access: [{ key: 'mcp:fs', mode: 'read' }] },
      { index: 1, parallelizable: true, access: [{ key: 'mcp:fs', mode: 'write' }] },
      { index: 2, parallelizable: true, access: [{ key: 'mcp:fs', mode: 'write' }] },
    ]);
    expect(registry.get('read_file')).toMatchObject({ readOnly: true, mcpName: 'read_file' });
    expect(registry.get('list_dir')).toMatchObject({ readOnly: false, annotations: undefined });
  });

  it('takes the overrides: a key from an argument, a read-only fix, a tool that must run alone', async () => {
    const registry = new ToolRegistry();
    await addMcpTools({
      registry,
      client: await fs(),
      server: 'fs',
      trust: 'annotations',
      overrides: {
        write_file: { access: (input) => [{ key: `mcp:fs/${String(input.path)}`, mode: 'write' }] },
        list_dir: { readOnly: true, description: 'List entries' },
        read_file: { concurrencySafe: (input) => input.path !== 'lock' },
      },
    });
    expect(
      registry.toPlanNodes([...calls, { id: '4', name: 'read_file', input: { path: 'lock' } }]),
    ).toEqual([
      { index: 0, parallelizable: true, access: [{ key: 'mcp:fs', mode: 'read' }] },
      { index: 1, parallelizable: true, access: [{ key: 'mcp:fs/a', mode: 'write' }] },
      { index: 2, parallelizable: true, access: [{ key: 'mcp:fs', mode: 'read' }] },
      { index: 3, parallelizable: false },
    ]);
    expect(registry.get('list_dir')?.description).toBe('List entries');
  });

  it('validates only that the arguments are an object (the server checks the rest)', async () => {
    const [readFile] = await mcpTools({ client: await fs(), server: 'fs' });
    expect(validateInput(readFile!, { path: 3 })).toEqual({ ok: true, value: { path: 3 } });
    expect(validateInput(readFile!, ['a'])).toEqual({
      ok: false,
      message: 'Invalid input for tool `read_file`: `(input)`: expected an object of arguments',
    });
    expect(validateInput(readFile!, 'a')).toMatchObject({ ok: false });
  });

  it('prefixes names so two servers fit one registry, and adds nothing when a name is taken', async () => {
    const registry = new ToolRegistry();
    await addMcpTools({ registry, client: await fs(), server: 'fs' });
    const error = await rejection(addMcpTools({ registry, client: await fs(), server: 'backup' }));
    expect(error.code).toBe('duplicate_tool');
    expect(error.message).toBe(
      'A tool named `read_file` is already registered; nothing of MCP server `backup` was added (give it a `prefix`)',
    );
    expect(registry.names()).toHaveLength(5);

    const added = await addMcpTools({
      registry,
      client: await fs(),
      server: 'backup',
      prefix: 'backup_',
      trust: 'annotations',
    });
    expect(added.map((tool) => [tool.name, tool.mcpName])).toContainEqual([
      'backup_read_file',
      'read_file',
    ]);
    expect(registry.names()).toHaveLength(10);
    expect(
      registry.toPlanNodes([{ id: '1', name: 'backup_read_file', input: { path: 'a' } }]),
    ).toEqual([{ index: 0, parallelizable: true, access: [{ key: 'mcp:backup', mode: 'read' }] }]);
  });
});

describe('mcpTools: bad options', () => {
  it('names an override of a tool the server does not list, and the tools it does list', async () => {
    const error = await rejection(
      mcpTools({
        client: await fs(),
        server: 'fs',
        overrides: { wirte_file: { readOnly: false } },
      }),
    );
    expect(error.code).toBe('unknown_override');
    expect(error.message).toBe(
      '`overrides` names `wirte_file`, which MCP server `fs` does not list; its tools are: `read_file`, `write_file`, `list_dir`, `shout`, `explode`',
    );
  });

  it.each([
    [{ server: '' }, 'Expected `server` to be a non-empty string, got `""` (string)'],
    [{ server: 3 }, 'Expected `server` to be a non-empty string, got `3` (number)'],
    [
      { client: {} },
      'Expected `client` to be a connected MCP client with `listTools` and `callTool`, got `{}` (object)',
    ],
    [
      { overrides: [] },
      'Expected `overrides` to be an object keyed by tool name, got `[]` (array)',
    ],
    [
      { overrides: { read_file: true } },
      'Expected `overrides.read_file` to be an object, got `true` (boolean)',
    ],
    [{ prefix: 1 }, 'Expected `prefix` to be a string, got `1` (number)'],
    [
      { requestTimeoutMs: 0 },
      'Expected `requestTimeoutMs` to be an integer from 1 and up, got `0` (number)',
    ],
    [
      { prefx: 'fs_' },
      'Unknown option `prefx` in the options of mcpTools; did you mean `prefix`? The options are `client`, `server`, `overrides`, `prefix`, `requestTimeoutMs`, `signal`, `trust`',
    ],
    [
      { overrides: { read_file: { readonly: true } } },
      'Unknown option `readonly` in the options of `overrides.read_file`; did you mean `readOnly`? The options are `readOnly`, `concurrencySafe`, `access`, `idempotent`, `description`',
    ],
    [
      { overrides: { read_file: { concurrencySafe: 'yes' } } },
      'Expected `concurrencySafe` to be a boolean or a function of the input, got `"yes"` (string)',
    ],
  ])('refuses %j', async (bad, message) => {
    const options = { client: await fs(), server: 'fs', ...bad } as Parameters<typeof mcpTools>[0];
    const error = await rejection(mcpTools(options));
    expect(error.code).toBe('invalid_options');
    expect(error.message).toBe(message);
  });

  it('addMcpTools names an unknown option and a dispatcher-like object where the registry belongs', async () => {
    const client = await fs();
    const unknown = await rejection(
      addMcpTools({ client, server: 'fs', registry: new ToolRegistry(), colour: 'red' } as never),
    );
    expect(unknown.code).toBe('invalid_options');
    expect(unknown.message).toMatch(
      /^Unknown option `colour` in the options of addMcpTools; the options are /,
    );
    const wrongKind = await rejection(
      addMcpTools({ client, server: 'fs', registry: { openTurn: () => undefined } } as never),
    );
    expect(wrongKind.message).toBe('Expected `registry` to be a ToolRegistry, got `{}` (object)');
    const missing = await rejection(addMcpTools(undefined as never));
    expect(missing.message).toBe(
      'Expected the options of addMcpTools to be an object, got `undefined` (undefined)',
    );
  });
});
