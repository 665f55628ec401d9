import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/cli-options.js';
import { DemoError } from '../src/demo-error.js';

describe('parseCliOptions', () => {
  it('has defaults that just work', () => {
    expect(parseCliOptions([])).toEqual({
      planner: 'greedy',
      mode: 'parallel',
      maxConcurrency: 8,
      workspace: undefined,
      latency: 1,
      json: false,
      compare: true,
      keepWorkspace: false,
      help: false,
    });
  });

  it('reads every flag', () => {
    expect(
      parseCliOptions([
        '--planner',
        'ordered',
        '--mode=sequential',
        '--max-concurrency',
        '3',
        '--workspace',
        '/tmp/x',
        '--latency',
        '0.5',
        '--json',
        '--no-compare',
        '--keep-workspace',
        '--help',
      ]),
    ).toEqual({
      planner: 'ordered',
      mode: 'sequential',
      maxConcurrency: 3,
      workspace: '/tmp/x',
      latency: 0.5,
      json: true,
      compare: false,
      keepWorkspace: true,
      help: true,
    });
  });

  it.each([
    [
      ['--planner', 'fastest'],
      'Expected `--planner` to be one of greedy, ordered, sequential, optimal, got `"fastest"` (string)',
    ],
    [['--mode', 'turbo'], 'Expected `--mode` to be parallel or sequential, got `"turbo"` (string)'],
    [
      ['--max-concurrency', '0'],
      'Expected `--max-concurrency` to be an integer from 1 and up, got `"0"` (string)',
    ],
    [
      ['--max-concurrency', '2.5'],
      'Expected `--max-concurrency` to be an integer from 1 and up, got `"2.5"` (string)',
    ],
    [['--latency=-1'], 'Expected `--latency` to be a number from 0 and up, got `"-1"` (string)'],
  ])('names the flag and the value: %j', (argv, message) => {
    expect(() => parseCliOptions(argv)).toThrow(message);
  });

  it('refuses unknown flags as a DemoError', () => {
    try {
      parseCliOptions(['--turbo']);
      expect.unreachable('an unknown flag must throw');
    } catch (error) {
      expect(error).toBeInstanceOf(DemoError);
      expect((error as DemoError).code).toBe('invalid_flag');
      expect((error as Error).message).toContain('--turbo');
    }
  });
});
