import { describe, expect, it } from 'vitest';
import { commandDir, parseCliOptions } from '../src/cli-options.js';
import { DemoError } from '../src/demo-error.js';

describe('parseCliOptions', () => {
  it('has defaults that just work', () => {
    expect(parseCliOptions([])).toEqual({
      planner: 'greedy',
      mode: 'parallel',
      maxConcurrency: 8,
      stream: true,
      tokensPerSecond: 200,
      workspace: undefined,
      latency: 1,
      json: false,
      jsonFile: undefined,
      compare: false,
      keepWorkspace: false,
      fleet: undefined,
      durable: false,
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
        '--compare',
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
      jsonFile: undefined,
      compare: true,
      keepWorkspace: true,
      fleet: 'redis://localhost:6379',
      durable: false,
      help: true,
    });
  });

  it('reads --durable, with the flags it uses', () => {
    const options = parseCliOptions(['--durable', '--latency', '2', '--keep-workspace']);
    expect(options).toMatchObject({ durable: true, latency: 2, keepWorkspace: true });
  });

  it('resolves the paths given against the folder the command was run in', () => {
    const options = parseCliOptions(
      ['--workspace', 'work', '--trace', 'out/t.json', '--json', '../report.json'],
      { cwd: '/home/user/project' },
    );
    expect(options.workspace).toBe('/home/user/project/work');
    expect(options.trace).toEqual({ file: '/home/user/project/out/t.json' });
    expect(options.jsonFile).toBe('/home/user/report.json');
    expect(options.json).toBe(false); // the report goes to the file, the live view to stdout
    expect(parseCliOptions(['--workspace', '/srv/w'], { cwd: '/home/user' }).workspace).toBe(
      '/srv/w',
    );
  });

  it('takes --json alone, or before another flag, as the report on stdout', () => {
    expect(parseCliOptions(['--json'])).toMatchObject({ json: true, jsonFile: undefined });
    expect(parseCliOptions(['--json', '--compare'])).toMatchObject({
      json: true,
      jsonFile: undefined,
      compare: true,
    });
  });

  it('runs in the folder pnpm was called from (INIT_CWD), else in the current one', () => {
    expect(commandDir({ env: { INIT_CWD: '/home/user/project' }, cwd: '/repo/apps/demo' })).toBe(
      '/home/user/project',
    );
    expect(commandDir({ env: {}, cwd: '/repo/apps/demo' })).toBe('/repo/apps/demo');
    expect(commandDir({ env: { INIT_CWD: '' }, cwd: '/repo' })).toBe('/repo');
  });

  it('takes --stream as the default it is', () => {
    expect(parseCliOptions(['--stream']).stream).toBe(true);
  });

  it.each([
    [
      ['--planner', 'fastest'],
      'Expected `--planner` to be one of greedy, ordered, sequential, optimal, got `"fastest"` (string)',
    ],
    [
      ['--planner', 'gredy'],
      'Expected `--planner` to be one of greedy, ordered, sequential, optimal, got `"gredy"` (string); did you mean `greedy`?',
    ],
    [
      ['--framework', 'langchan'],
      'Expected `--framework` to be one of langchain, openai-agents, ai-sdk, got `"langchan"` (string); did you mean `langchain`?',
    ],
    [['--plannr', 'greedy'], 'Unknown option `--plannr`; did you mean `--planner`? (see --help)'],
    [
      ['--max-concurency=4'],
      'Unknown option `--max-concurency`; did you mean `--max-concurrency`? (see --help)',
    ],
    [['--colour'], 'Unknown option `--colour` (see --help)'],
    [['-x'], 'Unknown option `-x` (see --help)'],
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
      ['--framework', 'langchain', '--json', 'out.json'],
      'Expected `--json` without a FILE with `--framework`, got `--json out.json`',
    ],
    [
      ['--durable', '--fleet', 'redis://localhost:6379'],
      'Expected `--durable` without `--fleet` (it runs one turn of its own), got both',
    ],
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
