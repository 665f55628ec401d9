import 'reflect-metadata';
import * as core from '@toolwaves/core';
import {
  fnTool,
  type ToolCall,
  ToolRegistry,
  ToolwavesError,
  takeWaitForPrevious,
  toAnthropicTools,
  toOpenAITools,
  toolJsonSchema,
  WAIT_FOR_PREVIOUS_DESCRIPTION,
  withWaitForPrevious,
} from '@toolwaves/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const read = fnTool({
  name: 'read',
  description: 'reads',
  input: z.object({ path: z.string() }),
  concurrencySafe: true,
  resourceKey: ({ path }) => path,
  execute: ({ path }) => path,
});
const commit = fnTool({
  name: 'commit',
  description: 'commits',
  concurrencySafe: true,
  runs: 'after-previous',
  execute: () => 'done',
});
const registry = new ToolRegistry().add(read).add(commit);

describe('ordering edges in plan nodes (toPlanNodes)', () => {
  it("turns `after` ids, `runs: 'after-previous'` and wait_for_previous into node fields", () => {
    const calls: ToolCall[] = [
      { id: 'a', name: 'read', input: { path: 'x' } },
      { id: 'b', name: 'read', input: { path: 'y' }, after: ['a', 'a'] },
      { id: 'c', name: 'commit', input: {} },
      { id: 'd', name: 'read', input: { path: 'z', wait_for_previous: true } },
    ];
    expect(registry.toPlanNodes(calls, { modelOrdering: true })).toEqual([
      { index: 0, parallelizable: true, resourceKey: 'x' },
      { index: 1, parallelizable: true, resourceKey: 'y', after: [0] },
      { index: 2, parallelizable: true, afterPrevious: 'after-previous' },
      { index: 3, parallelizable: true, resourceKey: 'z', afterPrevious: 'wait_for_previous' },
    ]);
  });

  it('without modelOrdering, wait_for_previous is input like any other', () => {
    const [node] = registry.toPlanNodes([
      { id: 'a', name: 'read', input: { path: 'x', wait_for_previous: true } },
    ]);
    expect(node).toEqual({ index: 0, parallelizable: true, resourceKey: 'x' });
  });

  it('refuses an id no earlier call has, naming the call and the id', () => {
    const calls: ToolCall[] = [{ id: 'a', name: 'read', input: { path: 'x' }, after: ['nope'] }];
    expect(() => registry.toPlanNodes(calls)).toThrow(ToolwavesError);
    expect(() => registry.toPlanNodes(calls)).toThrow(
      'call `a` (call 0, `read`) names `nope` in `after`, which no earlier call of the turn has',
    );
    expect(() => registry.toPlanNodes([], { modelOrderin: true } as never)).toThrow(
      'did you mean `modelOrdering`?',
    );
  });
});

describe('runs', () => {
  it("fnTool keeps `runs: 'after-previous'` and refuses anything else", () => {
    expect(commit.runs).toBe('after-previous');
    expect(() =>
      fnTool({ name: 't', description: 't', runs: 'later' as never, execute: () => '' }),
    ).toThrow('`runs`');
    expect(() =>
      new ToolRegistry().add({
        name: 't',
        description: 't',
        runs: 'x',
        execute: () => '',
      } as never),
    ).toThrow("Expected `runs` of tool `t` to be 'after-previous', got");
  });
});

describe('wait_for_previous in schemas', () => {
  it('is added, optional, to every tool schema given to the model, with a description', () => {
    const schema = toolJsonSchema(read, { modelOrdering: true });
    expect(schema.properties).toMatchObject({
      path: { type: 'string' },
      wait_for_previous: { type: 'boolean', description: WAIT_FOR_PREVIOUS_DESCRIPTION },
    });
    expect(schema.required).toEqual(['path']);
    expect(toolJsonSchema(read).properties).not.toHaveProperty('wait_for_previous');
    const openai = toOpenAITools(registry, { modelOrdering: true });
    expect(
      openai.map((tool) => Object.keys(tool.function.parameters.properties as object)),
    ).toEqual([['wait_for_previous'], ['path', 'wait_for_previous']]);
    const anthropic = toAnthropicTools(registry, { modelOrdering: true });
    expect(anthropic[1]!.input_schema.properties).toHaveProperty('wait_for_previous');
  });

  it('refuses a tool whose own input has the field, and unknown options', () => {
    expect(() =>
      withWaitForPrevious({
        schema: { type: 'object', properties: { wait_for_previous: {} } },
        toolName: 'x',
      }),
    ).toThrow('Tool `x` already has an input field `wait_for_previous`');
    expect(() => toolJsonSchema(read, { ordering: true } as never)).toThrow(
      'Unknown option `ordering`',
    );
  });

  it('is taken out of an input; a non-boolean is reported', () => {
    expect(takeWaitForPrevious({ a: 1, wait_for_previous: true })).toEqual({
      input: { a: 1 },
      waitForPrevious: true,
    });
    const plain = { a: 1 };
    expect(takeWaitForPrevious(plain).input).toBe(plain);
    expect(takeWaitForPrevious({ wait_for_previous: 1 }).invalid).toBe(
      '`wait_for_previous`: expected a boolean, got `1` (number)',
    );
  });
});

describe('runs on a class tool', () => {
  it("@tool({ runs: 'after-previous' }) makes each call follow every earlier call", () => {
    @core.tool({ name: 'deploy', description: 'deploys', runs: 'after-previous' })
    class Deploy extends core.ToolClass {
      execute() {
        return 'deployed';
      }
    }
    const classes = new ToolRegistry().add(read).add(new Deploy());
    const nodes = classes.toPlanNodes([
      { id: 'a', name: 'read', input: { path: 'x' } },
      { id: 'b', name: 'deploy', input: {} },
    ]);
    expect(nodes[1]).toEqual({ index: 1, parallelizable: false, afterPrevious: 'after-previous' });
    expect(() => core.tool({ name: 'x', description: 'x', runs: 'first' } as never)).toThrow(
      'Expected `runs` to be one of "after-previous"',
    );
  });
});
