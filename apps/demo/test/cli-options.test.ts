import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/cli-options.js';
import { DemoError } from '../src/demo-error.js';

describe('parseCliOptions', () => {
  it('has defaults that just work', () => {
    expect(parseCliOptions([])).toEqual({
      planner: 'greedy',
      mode: 'parallel',
      maxConcurrency: 8,
      stream: true,
      tokensPerSecond: 80,
      workspace: undefined,
      latency: 1,
      json: false,
      compare: true,
      keepWorkspace: false,
      fleet: undefined,
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
        '--no-stream',
        '--tokens-per-second',
        '120.5',
        '--workspace',
        '/tmp/x',
        '--latency',
        '0.5',
        '--json',
        '--no-compare',
        '--keep-workspace',
        '--fleet',
        'redis://localhost:6379',
        '--help',
      ]),
    ).toEqual({
      planner: 'ordered',
      mode: 'sequential',
      maxConcurrency: 3,
      stream: false,
      tokensPerSecond: 120.5,
      workspace: '/tmp/x',
      latency: 0.5,
      json: true,
      compare: false,
      keepWorkspace: true,
      fleet: 'redis://localhost:6379',
      help: true,
    });
  });

  it('takes --stream as the default it is', () => {
    expect(parseCliOptions(['--stream']).stream).toBe(true);
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
    [
      ['--tokens-per-second', '0'],
      'Expected `--tokens-per-second` to be a number above 0, got `"0"` (string)',
    ],
    [
      ['--tokens-per-second', 'fast'],
      'Expected `--tokens-per-second` to be a number above 0, got `"fast"` (string)',
    ],
    [['--stream', '--no-stream'], 'Expected one of `--stream` and `--no-stream`, got both'],
    [['--latency=-1'], 'Expected `--latency` to be a number from 0 and up, got `"-1"` (string)'],
    [
      ['--fleet', 'localhost:6379'],
      'Expected `--fleet` to be a redis:// or rediss:// URL, got `"localhost:6379"` (string)',
    ],
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
