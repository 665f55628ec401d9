// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  abortableDelay,
  fnTool,
  type Instrumentation,
  type ToolCall,
  type ToolContext,
  ToolRegistry,
} from '@toolwaves/core';
import fc from 'fast-check';
import { Subject } from 'rxjs';
import { it, vi } from 'vitest';
import { Dispatcher, type ToolExecute } from '../src/index.js';
import { useFakeClock } from './fake-clock.js';
import { type GeneratedOp, generatedOpArb } from './generated-ops.js';
import { retryOnce } from './recovery-strategies.js';

useFakeClock();

/** The request-scoped value a framework, a tracer or a platform keeps in async context. */
const request = new AsyncLocalStorage<string>();

/** A generated call; `undeclared` calls a tool that declares nothing (it runs alone). */
type Op = GeneratedOp & { readonly undeclared: boolean; readonly given: boolean };

const opArb: fc.Arbitrary<Op> = fc
  .tuple(generatedOpArb(['ok', 'ok', 'throw', 'report']), fc.boolean(), fc.boolean())
  .map(([op, undeclared, given]) => ({ ...op, undeclared: undeclared && !op.safe, given }));

type Entry = 'concurrent dispatches' | 'stream' | 'turn';

const scenarioArb = fc.record({
  ops: fc.array(opArb, { minLength: 1, maxLength: 12 }),
  cap: fc.integer({ min: 1, max: 3 }),
  mode: fc.constantFrom('sequential', 'parallel', 'eager') as fc.Arbitrary<
    'sequential' | 'parallel' | 'eager'
  >,
  entry: fc.constantFrom<Entry>('concurrent dispatches', 'stream', 'turn'),
  /** How many dispatches share the calls (concurrent dispatches), each from its own context. */
  batches: fc.integer({ min: 2, max: 3 }),
  retryDelay: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  timeoutMs: fc.option(fc.integer({ min: 5, max: 40 }), { nil: undefined }),
  instrumented: fc.boolean(),
});

/** The input of every generated call: its position, and the context value it was submitted in. */
interface OpInput {
  readonly i: number;
  readonly owner: string;
}

it('every call runs its tool, hooks, recovery and instrumentation in the async context of the code that submitted it', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const { ops, cap, mode, entry } = scenario;
      // Each place where a call's own code ran, with the value it saw and the one it should.
      const seen: { where: string; saw: string | undefined; owner: string }[] = [];
      const note = (where: string, input: unknown): void => {
        const { i, owner } = input as OpInput;
        seen.push({ where: `${where} ${i}`, saw: request.getStore(), owner });
      };
      const op = (input: unknown): Op => ops[(input as OpInput).i]!;
      const run = async (input: OpInput, context: ToolContext) => {
        note(`execute${context.attempt}`, input);
        await abortableDelay(op(input).ms, context.signal);
        note('after await', input);
        if (op(input).end === 'throw') throw new Error(`boom ${input.i}`);
        return { content: `r${input.i}`, isError: op(input).end === 'report' };
      };
      const registry = new ToolRegistry()
        .add(
          fnTool<OpInput>({
            name: 'op',
            description: 'declares its safety and accesses',
            concurrencySafe: (input) => op(input).safe,
            access: (input) =>
              op(input).accesses.map(({ key, write }) => ({ key, mode: write ? 'write' : 'read' })),
            execute: run,
          }),
        )
        .add(fnTool<OpInput>({ name: 'bare', description: 'declares nothing', execute: run }));
      const instrumentation: Instrumentation = {
        startBatch: () => ({
          startAttempt: (info) => {
            note('startAttempt', info.input);
            return {
              granted: () => undefined,
              run: (fn) => {
                note('instrument.run', info.input);
                return fn();
              },
              end: () => undefined,
            };
          },
          end: () => undefined,
        }),
      };
      const dispatcher = new Dispatcher({
        registry,
        mode,
        maxConcurrency: cap,
        hooks: {
          pre: [({ input }) => void note('pre', input)],
          post: [({ input }) => void note('post', input)],
        },
        ...(scenario.retryDelay === undefined
          ? {}
          : { recovery: { strategy: retryOnce(scenario.retryDelay) } }),
        ...(scenario.timeoutMs === undefined ? {} : { timeoutMs: scenario.timeoutMs }),
        ...(scenario.instrumented ? { instrumentation } : {}),
      });
      const callOf = (i: number, owner: string): ToolCall => ({
        id: `c${i}`,
        name: ops[i]!.undeclared ? 'bare' : 'op',
        input: { i, owner } satisfies OpInput,
      });
      const settled: Promise<unknown>[] = [];
      if (entry === 'concurrent dispatches') {
        // Call i goes to batch i % batches; each batch is dispatched from its own context.
        for (let b = 0; b < scenario.batches; b++) {
          const owner = `batch ${b}`;
          const calls = ops.flatMap((_, i) =>
            i % scenario.batches === b ? [callOf(i, owner)] : [],
          );
          settled.push(request.run(owner, () => dispatcher.dispatch(calls)));
        }
      } else if (entry === 'stream') {
        const source = new Subject<ToolCall>();
        settled.push(request.run('the stream', () => dispatcher.dispatchStream(source)));
        let at = 0;
        ops.forEach((generated, i) => {
          at += generated.arrivalGap;
          // A fake timer runs in the test's context: the emitter enters the call's own.
          setTimeout(() => {
            request.run(`call ${i}`, () => source.next(callOf(i, `call ${i}`)));
            if (i === ops.length - 1) source.complete();
          }, at);
        });
      } else {
        const turn = request.run('the turn', () => dispatcher.openTurn());
        const given: ToolExecute = (input, context) => run(input as OpInput, context);
        let at = 0;
        ops.forEach((generated, i) => {
          at += generated.arrivalGap;
          setTimeout(() => {
            const call = callOf(i, `call ${i}`);
            settled.push(
              request.run(`call ${i}`, () =>
                generated.given ? turn.run(call, given) : turn.run(call),
              ),
            );
            if (i === ops.length - 1) settled.push(turn.close());
          }, at);
        });
      }
      await vi.runAllTimersAsync();
      const outcomes = await Promise.allSettled(settled);
      assert.equal(
        outcomes.every((outcome) => outcome.status === 'fulfilled'),
        true,
      );
      // Every call ran its tool (no pre hook blocks, nothing cancels).
      for (let i = 0; i < ops.length; i++) {
        assert.equal(
          seen.some(({ where }) => where === `execute1 ${i}`),
          true,
        );
      }
      const wrong = seen.filter(({ saw, owner }) => saw !== owner);
      assert.deepEqual(wrong, []);
    }),
    { numRuns: 300 },
  );
});
