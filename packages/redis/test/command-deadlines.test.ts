import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommandDeadlines } from '../src/command-deadlines.js';

/** A command the test answers by hand. */
function manual() {
  let answer: (value: string) => void = () => undefined;
  const sent = new Promise<string>((resolve) => {
    answer = resolve;
  });
  return { send: () => sent, answer };
}

describe('command deadlines (virtual time)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keep one timer for the connection, however many commands are out', async () => {
    const deadlines = new CommandDeadlines(1000);
    const commands = Array.from({ length: 100 }, () => manual());
    const answers = commands.map((c) => deadlines.watch(c.send));
    expect(vi.getTimerCount()).toBe(1);
    for (const [i, c] of commands.entries()) c.answer(`reply ${i}`);
    expect(await Promise.all(answers)).toEqual(commands.map((_, i) => `reply ${i}`));
    await vi.advanceTimersByTimeAsync(1000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fail every command unanswered past its deadline, and only those', async () => {
    const deadlines = new CommandDeadlines(1000);
    const first = manual();
    const firstAnswer = deadlines.watch(first.send).catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(600);
    const second = manual();
    const secondAnswer = deadlines.watch(second.send).catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(400); // the first is 1000 ms old, the second 400
    expect(await firstAnswer).toBe('no answer within 1000 ms');
    second.answer('late but in time');
    expect(await secondAnswer).toBe('late but in time');
  });

  it('a frozen server: each command fails at its own deadline', async () => {
    const deadlines = new CommandDeadlines(500);
    const settled: string[] = [];
    for (const at of [0, 100, 200]) {
      await vi.advanceTimersByTimeAsync(at === 0 ? 0 : 100);
      deadlines.watch(manual().send).catch(() => settled.push(`sent at ${at}`));
    }
    await vi.advanceTimersByTimeAsync(299); // 499 ms after the first
    expect(settled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual(['sent at 0']);
    await vi.advanceTimersByTimeAsync(200);
    expect(settled).toEqual(['sent at 0', 'sent at 100', 'sent at 200']);
  });
});
