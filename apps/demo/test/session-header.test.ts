import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/cli-options.js';
import { sessionHeader } from '../src/session-header.js';

const header = (argv: string[], model: { tokensPerSecond?: number } = { tokensPerSecond: 200 }) =>
  sessionHeader({ ...parseCliOptions(argv), tokensPerSecond: model.tokensPerSecond });

describe('sessionHeader', () => {
  it('says streamed turns for the default, eager parallel mode', () => {
    expect(header([])).toBe(
      'streamed turns: each call starts once written and clear of the calls it conflicts with · mode: parallel (eager) · max concurrency: 8 · model: 200 tokens/s · latency ×1',
    );
  });

  it('says one call at a time for --mode sequential, streamed or not, and no cap', () => {
    expect(header(['--mode', 'sequential'])).toBe(
      "one call at a time in the model's order, each once written · mode: sequential · model: 200 tokens/s · latency ×1",
    );
    expect(header(['--mode', 'sequential', '--no-stream'])).toBe(
      "one call at a time in the model's order, after the whole turn · mode: sequential · model: 200 tokens/s · latency ×1",
    );
  });

  it('names the planner of whole turns (--no-stream), and no token rate for a real model', () => {
    expect(header(['--no-stream', '--planner', 'optimal', '--max-concurrency', '2'], {})).toBe(
      'whole turns in waves, planner: optimal · mode: parallel · max concurrency: 2 · latency ×1',
    );
  });
});
