import type { Container, Newable } from 'inversify';
import { toolMetadata } from './tool-decorator.js';
import { TOOL } from './tool-token.js';
import { ToolwavesError } from './toolwaves-error.js';

/**
 * Binds `@tool` classes in a container (or a `ContainerModule`'s `bind`) under {@link TOOL}
 * (singletons), and each class to itself,
 * so `ToolRegistry.fromContainer` finds them and their dependencies are injected.
 *
 * @throws ToolwavesError `invalid_tool` for a class without `@tool`.
 * @example
 * ```ts
 * bindTools(container, [ReadFile, WriteFile]);
 * ```
 */
export function bindTools(
  container: Pick<Container, 'bind'>,
  classes: readonly Newable<object>[],
): void {
  for (const cls of classes) {
    if (toolMetadata(cls) === undefined) {
      throw new ToolwavesError({
        code: 'invalid_tool',
        message: `Class \`${cls.name}\` is not a tool: decorate it with @tool({ name, description })`,
      });
    }
    container.bind(cls).toSelf().inSingletonScope();
    container.bind(TOOL).toService(cls);
  }
}
