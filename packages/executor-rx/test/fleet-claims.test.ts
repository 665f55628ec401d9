// Inside the properties, node:assert: vitest's `expect` costs tens of µs a call, thousands of calls.
import assert from 'node:assert/strict';
import {
  type CoordinationGrant,
  type CoordinationRequest,
  type Coordinator,
  fnTool,
  type Tool,
  ToolRegistry,
} from '@toolwaves/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../src/index.js';
import { call } from './tool-call.js';

/** A coordinator that grants every request at once and keeps each one. */
class RecordingCoordinator implements Coordinator {
  readonly requests: CoordinationRequest[] = [];

  acquire(request: CoordinationRequest): Promise<CoordinationGrant> {
    this.requests.push(request);
    return Promise.resolve({ lost: new AbortController().signal, release: async () => {} });
  }
}

/** What a generated tool answers for each declaration. */
interface DeclarationSpec {
  readonly safe: 'absent' | 'true' | 'false' | 'throws' | 'truthy';
  readonly key: 'absent' | 'string' | 'undefined' | 'number' | 'throws';
  readonly access: 'absent' | 'list' | 'empty' | 'not a list' | 'bad mode' | 'no key' | 'throws';
}

const specArb: fc.Arbitrary<DeclarationSpec> = fc.record({
  safe: fc.constantFrom('absent', 'true', 'true', 'false', 'throws', 'truthy'),
  key: fc.constantFrom('absent', 'absent', 'string', 'undefined', 'number', 'throws'),
  access: fc.constantFrom(
    'absent',
    'list',
    'list',
    'empty',
    'not a list',
    'bad mode',
    'no key',
    'throws',
  ),
});

const boom = (): never => {
  throw new Error('cannot tell');
};

/** A tool declaring what `spec` says (a missing declaration is left out of the tool). */
function toolOf(name: string, spec: DeclarationSpec): Tool {
  const tool: { -readonly [K in keyof Tool]: Tool[K] } = {
    name,
    description: name,
    execute: () => 'ran',
  };
  if (spec.safe !== 'absent') {
    const answers = { true: true, false: false, truthy: 'yes' } as const;
    tool.isConcurrencySafe =
      spec.safe === 'throws' ? boom : () => answers[spec.safe as keyof typeof answers] as boolean;
  }
  if (spec.key !== 'absent') {
    const answers = { string: `fs:/${name}`, undefined: undefined, number: 42 } as const;
    tool.resourceKey =
      spec.key === 'throws' ? boom : () => answers[spec.key as keyof typeof answers] as string;
  }
  if (spec.access !== 'absent') {
    const answers: Record<string, unknown> = {
      list: [
        { key: `db:/${name}`, mode: 'read' },
        { key: `fs:/${name}/out`, mode: 'write' },
      ],
      empty: [],
      'not a list': { key: 'db:/x', mode: 'read' },
      'bad mode': [{ key: 'db:/x', mode: 'exec' }],
      'no key': [{ mode: 'read' }],
    };
    tool.access = spec.access === 'throws' ? boom : () => answers[spec.access] as never;
  }
  return tool;
}

// The reference, plainly from the spec: what each declaration answers, and whether it can be used.
const declaredSafe = (spec: DeclarationSpec): boolean => spec.safe === 'true';
const keyUnreadable = (spec: DeclarationSpec): boolean =>
  spec.key === 'number' || spec.key === 'throws';
const accessUnreadable = (spec: DeclarationSpec): boolean =>
  !['absent', 'list', 'empty'].includes(spec.access);
/** The accesses the spec declares, key first (a write), then the list. */
function declaredAccesses(name: string, spec: DeclarationSpec): { key: string; mode: string }[] {
  const list: { key: string; mode: string }[] = [];
  if (spec.key === 'string') list.push({ key: `fs:/${name}`, mode: 'write' });
  if (spec.access === 'list') {
    list.push({ key: `db:/${name}`, mode: 'read' }, { key: `fs:/${name}/out`, mode: 'write' });
  }
  return list;
}

describe('one reading of the declarations: the plan and the fleet request agree', () => {
  it('for random tools, a call that runs alone in the plan holds the namespace fleet-wide, and a safe one holds what its node declares', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('sequential', 'parallel', 'eager') as fc.Arbitrary<
          'sequential' | 'parallel' | 'eager'
        >,
        fc.boolean(),
        async (specs, mode, exclusiveForUnsafe) => {
          const registry = new ToolRegistry();
          for (const [i, spec] of specs.entries()) registry.add(toolOf(`t${i}`, spec));
          const fleet = new RecordingCoordinator();
          const dispatcher = new Dispatcher({
            registry,
            mode,
            coordinator: fleet,
            fleetExclusiveForUnsafe: exclusiveForUnsafe,
          });
          const calls = specs.map((_, i) => call(`c${i}`, `t${i}`));
          const results = await dispatcher.dispatch(calls);
          assert.deepEqual(
            results.map((r) => r.content),
            specs.map(() => 'ran'),
          );
          const nodes = registry.toPlanNodes(calls);
          specs.forEach((spec, i) => {
            const request = fleet.requests.find((r) => r.toolCallId === `c${i}`)!;
            const node = nodes[i]!;
            const unreadable =
              spec.safe === 'throws' ||
              ((declaredSafe(spec) || !exclusiveForUnsafe) &&
                (keyUnreadable(spec) || accessUnreadable(spec)));
            const runsAlone = !declaredSafe(spec) || unreadable;
            // The plan (core's reading through the registry) says what the reference says...
            assert.equal(node.parallelizable, !runsAlone);
            // ...and the fleet request agrees with it.
            const exclusive = exclusiveForUnsafe ? runsAlone : unreadable;
            assert.equal(request.exclusive === true, exclusive);
            if (exclusiveForUnsafe) assert.equal(request.exclusive === true, !node.parallelizable);
            const expected = exclusive
              ? []
              : declaredAccesses(`t${i}`, spec).map(({ key, mode }) => ({
                  key,
                  mode: runsAlone ? 'write' : mode,
                }));
            assert.deepEqual(request.access, expected);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('fails closed fleet-wide (a recording coordinator)', () => {
  const runTests = fnTool({
    name: 'run_tests',
    description: 'declares nothing',
    execute: () => 'ok',
  });
  const migrate = fnTool({
    name: 'migrate',
    description: 'unsafe, declares what it touches',
    concurrencySafe: false,
    access: [{ key: 'db:/schema', mode: 'read' }],
    execute: () => 'ok',
  });
  const broken = fnTool({
    name: 'broken',
    description: 'its safety predicate throws',
    concurrencySafe: () => {
      throw new Error('cannot tell');
    },
    execute: () => 'ok',
  });
  const read = fnTool({
    name: 'read',
    description: 'safe, reads one key',
    concurrencySafe: true,
    access: [{ key: 'fs:/a', mode: 'read' }],
    execute: () => 'ok',
  });
  const registry = new ToolRegistry().add(runTests).add(migrate).add(broken).add(read);
  const calls = [
    call('t', 'run_tests'),
    call('m', 'migrate'),
    call('b', 'broken'),
    call('r', 'read'),
  ];
  const claims = (fleet: RecordingCoordinator) =>
    fleet.requests.map((r) => [r.toolCallId, r.exclusive === true, r.access]);

  it.each(['sequential', 'parallel', 'eager'] as const)(
    '%s: an unsafe call that declares nothing, an unsafe one that declares accesses and a throwing declaration hold the namespace',
    async (mode) => {
      const fleet = new RecordingCoordinator();
      await new Dispatcher({ registry, mode, coordinator: fleet }).dispatch(calls);
      expect(claims(fleet)).toEqual([
        ['t', true, []],
        ['m', true, []],
        ['b', true, []],
        ['r', false, [{ key: 'fs:/a', mode: 'read' }]],
      ]);
    },
  );

  it('fleetExclusiveForUnsafe: false gives it up: unsafe calls hold what they declare, as writes; a throwing declaration still holds the namespace', async () => {
    const fleet = new RecordingCoordinator();
    await new Dispatcher({ registry, coordinator: fleet, fleetExclusiveForUnsafe: false }).dispatch(
      calls,
    );
    expect(claims(fleet)).toEqual([
      ['t', false, []],
      ['m', false, [{ key: 'db:/schema', mode: 'write' }]],
      ['b', true, []],
      ['r', false, [{ key: 'fs:/a', mode: 'read' }]],
    ]);
  });

  it('refuses a fleetExclusiveForUnsafe that is not a boolean', () => {
    expect(
      () => new Dispatcher({ registry, fleetExclusiveForUnsafe: 'no' as unknown as boolean }),
    ).toThrow('Expected `fleetExclusiveForUnsafe` to be a boolean, got `"no"` (string)');
  });
});
