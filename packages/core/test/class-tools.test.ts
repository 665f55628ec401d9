import 'reflect-metadata';
import { Container, inject, injectable } from 'inversify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindTools, TOOL, ToolRegistry, ToolwavesError, tool, toolMetadata } from '../src/index.js';

const GREETING = Symbol('Greeting');

@injectable()
class Greeting {
  readonly word = 'hello';
}

const greetInput = z.object({ who: z.string() });

@tool({ name: 'greet', description: 'Greets someone', input: greetInput })
class Greet {
  constructor(@inject(GREETING) private readonly greeting: Greeting) {}
  isConcurrencySafe(input: { who: string }): boolean {
    return input.who !== 'everyone';
  }
  resourceKey(input: { who: string }): string {
    return `person:${input.who}`;
  }
  execute(input: { who: string }): string {
    return `${this.greeting.word} ${input.who}`;
  }
}

@tool({ name: 'shout', description: 'Writes to the wall' })
class Shout {
  execute(): string {
    return 'HEY';
  }
}

function containerWithTools(): Container {
  const container = new Container();
  container.bind(GREETING).to(Greeting).inSingletonScope();
  bindTools(container, [Greet, Shout]);
  return container;
}

describe('@tool classes through a real inversify container', () => {
  it('stores the metadata and exposes it on instances', () => {
    expect(toolMetadata(Greet)).toEqual({
      name: 'greet',
      description: 'Greets someone',
      input: greetInput,
    });
    const container = containerWithTools();
    const instance = container.get(Greet) as unknown as { name: string; description: string };
    expect(instance.name).toBe('greet');
    expect(instance.description).toBe('Greets someone');
  });

  it('injects the dependency and runs the tool from the registry', async () => {
    const registry = ToolRegistry.fromContainer(containerWithTools());
    expect(registry.names()).toEqual(['greet', 'shout']);
    const greet = registry.get('greet');
    expect(greet).toBeDefined();
    const signal = new AbortController().signal;
    await expect(
      Promise.resolve(greet?.execute({ who: 'Ada' }, { toolCallId: 'c1', signal, attempt: 1 })),
    ).resolves.toBe('hello Ada');
  });

  it('answers per input, and defaults to not safe with no key', () => {
    const registry = ToolRegistry.fromContainer(containerWithTools());
    const nodes = registry.toPlanNodes([
      { id: 'a', name: 'greet', input: { who: 'Ada' } },
      { id: 'b', name: 'greet', input: { who: 'everyone' } },
      { id: 'c', name: 'shout', input: {} },
    ]);
    expect(nodes).toEqual([
      { index: 0, parallelizable: true, resourceKey: 'person:Ada' },
      { index: 1, parallelizable: false },
      { index: 2, parallelizable: false },
    ]);
  });

  it('is one decorator: the class is injectable without @injectable', () => {
    const container = new Container();
    container.bind(Shout).toSelf();
    expect(container.get(Shout)).toBeInstanceOf(Shout);
  });

  it('an empty container gives an empty registry', () => {
    expect(ToolRegistry.fromContainer(new Container()).names()).toEqual([]);
  });

  it('refuses to bind a class that is not a tool, naming it', () => {
    class Plain {
      execute() {
        return '';
      }
    }
    expect(() => bindTools(new Container(), [Plain])).toThrow(/Class `Plain` is not a tool/);
  });

  it('refuses @tool on a class without execute, naming both', () => {
    expect(() => {
      // @ts-expect-error the type checker refuses it too; this is the check for untyped callers
      @tool({ name: 'broken', description: 'x' })
      class Broken {}
      return Broken;
    }).toThrow(/@tool\(\{ name: 'broken' \}\) is on class `Broken`, which has no `execute` method/);
  });

  it('reports two bound tools with one name as duplicate_tool naming it', () => {
    @tool({ name: 'greet', description: 'another greet' })
    class OtherGreet {
      execute() {
        return '';
      }
    }
    const container = containerWithTools();
    bindTools(container, [OtherGreet]);
    const attempt = () => ToolRegistry.fromContainer(container);
    expect(attempt).toThrow(ToolwavesError);
    expect(attempt).toThrow('A tool named `greet` is already registered');
  });

  it('binds every tool under the TOOL token', () => {
    expect(containerWithTools().getAll(TOOL)).toHaveLength(2);
  });
});
