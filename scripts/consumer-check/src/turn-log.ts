import { declareTool, ToolRegistry } from '@toolwaves/core';
import { Dispatcher } from '@toolwaves/executor-rx';
import { z } from 'zod';

/** The one turn every program plays: two reads of different files, then an edit of the first. */
export const TURN = [
  { id: 'call_1', name: 'read_file', input: { path: 'a.ts' } },
  { id: 'call_2', name: 'read_file', input: { path: 'b.ts' } },
  { id: 'call_3', name: 'edit_file', input: { path: 'a.ts' } },
] as const;

const pathInput = z.object({ path: z.string() });

/**
 * The dispatcher every program uses: `read_file` and `edit_file` declared by name (the framework
 * runs them), a read and an edit of one path conflicting.
 */
export function turnDispatcher(): Dispatcher {
  const registry = new ToolRegistry()
    .add(
      declareTool({
        name: 'read_file',
        input: pathInput,
        concurrencySafe: true,
        access: ({ path }) => [{ key: `fs:/${path}`, mode: 'read' }],
      }),
    )
    .add(
      declareTool({
        name: 'edit_file',
        input: pathInput,
        concurrencySafe: true,
        access: ({ path }) => [{ key: `fs:/${path}`, mode: 'write' }],
      }),
    );
  return new Dispatcher({ registry, mode: 'eager' });
}

/**
 * What the framework's tools did: each records its start and end, and holds for a while so that
 * calls that may overlap do.
 */
export class TurnLog {
  readonly events: string[] = [];
  #running = 0;
  #mostAtOnce = 0;

  /** The body of both tools. */
  async run(name: string, path: string): Promise<string> {
    this.events.push(`start ${name} ${path}`);
    this.#running += 1;
    this.#mostAtOnce = Math.max(this.#mostAtOnce, this.#running);
    await new Promise((resolve) => setTimeout(resolve, 50));
    this.#running -= 1;
    this.events.push(`end ${name} ${path}`);
    return `${name} ${path} done`;
  }

  /**
   * Checks the turn ran as toolwaves scheduled it: both reads at once, the edit of `a.ts` only
   * after its read ended, and the answers in the model's order. Exits the process with 1 if not.
   */
  check(framework: string, answers: readonly string[]): void {
    const problems: string[] = [];
    if (this.#mostAtOnce < 2) problems.push('the two reads did not run at once');
    const readEnded = this.events.indexOf('end read_file a.ts');
    const editStarted = this.events.indexOf('start edit_file a.ts');
    if (readEnded === -1 || editStarted === -1 || editStarted < readEnded) {
      problems.push('the edit of a.ts did not wait for its read');
    }
    const expected = TURN.map((call) => `${call.name} ${call.input.path} done`);
    if (JSON.stringify(answers) !== JSON.stringify(expected)) {
      problems.push(`answers ${JSON.stringify(answers)}, expected ${JSON.stringify(expected)}`);
    }
    if (problems.length > 0) {
      console.error(`${framework}: ${problems.join('; ')} (events: ${this.events.join(', ')})`);
      process.exit(1);
    }
    console.log(`${framework}: one turn ran as planned (${this.events.join(', ')})`);
  }
}
