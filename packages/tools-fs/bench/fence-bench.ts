/**
 * The cost of the host fence: a fenced write (what `write_file` does with a fencing token: claim
 * the key when it starts, draft the new content, commit through the fence) against a plain
 * atomic write (draft, rename), side by side in one run, one writer and four writers at once
 * (each on its own files), in pairs of rounds back to back. Run: `pnpm --filter @toolwaves/tools-fs bench`.
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { draftFile, fsKey, HostFence } from '@toolwaves/tools-fs';

/**
 * Pairs of rounds per figure, one writer and four alike. On 2 shared cores one pair swings far
 * (four writers most), and the first pairs of a run are taken while V8 is still optimizing the
 * fence's code (a function is compiled by TurboFan after thousands of calls: `node --trace-opt`
 * shows `claim`, `commit` and the listing's functions optimized during the first 15 four-writer
 * pairs and after). In longer runs of the same pairs the medians of successive groups of 15 went
 * 1.57, 1.45, 1.49, 1.14 and 1.61, 1.27, 1.35: 15 pairs told the figure no closer than 0.3, and
 * mostly told the code before it was optimized. More pairs change nothing of what one pair
 * measures. The single writer had 15 pairs, all in and right after the fence's first second
 * (the young-listing path, see the README, and code not yet optimized): three runs in a row gave
 * 1.19×, 1.25× and 1.31× with 108–123 µs a write in the fence's steps, where runs of 60 pairs gave
 * 1.17× and 1.17× (74–75 µs), their first 15 pairs 1.15× and 1.17×. The median of the first
 * {@link FIRST_PAIRS} pairs of each figure is printed beside it, so the cost of a process's first
 * writes stays in sight.
 */
const ROUNDS = { sequential: 45, fourWriters: 45 } as const;
/** The pairs whose median is printed beside each figure: a process's first writes. */
const FIRST_PAIRS = 15;
const WRITES_PER_ROUND = 80;
const FILES_PER_WRITER = 20;

type Write = (writer: number, i: number) => Promise<void>;

async function main(): Promise<void> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-fence-bench-')));
  const root = join(base, 'root');
  const fenceTemp = await mkdtemp(join(tmpdir(), 'toolwaves-fence-bench-tmp-'));
  await mkdir(root);
  // the fence where fsToolsModule puts it by default, in a folder of its own for the run
  const fence = HostFence.forUser({ tempDir: fenceTemp });
  let token = 0;
  const target = (kind: string, writer: number, i: number) =>
    join(root, `${kind}-${writer}-${i % FILES_PER_WRITER}.txt`);

  const plain: Write = async (writer, i) => {
    const draft = await draftFile({ target: target('plain', writer, i), content: `${i}\n` });
    try {
      await draft.commit();
    } finally {
      await draft.discard();
    }
  };
  /** Time spent in the fence's own steps (claim, and commit less the rename), in ms. */
  let inFence = 0;
  let fencedWrites = 0;
  const fenced: Write = async (writer, i) => {
    token += 1;
    const file = target('fenced', writer, i);
    const write = { keys: [fsKey(file)], token, what: `\`${file}\`` };
    let started = performance.now();
    await fence.claim(write);
    inFence += performance.now() - started;
    const draft = await draftFile({ target: file, content: `${i}\n` });
    try {
      started = performance.now();
      let applying = 0;
      await fence.commit(write, async () => {
        const at = performance.now();
        await draft.commit();
        applying = performance.now() - at;
      });
      inFence += performance.now() - started - applying;
      fencedWrites += 1;
    } finally {
      await draft.discard();
    }
  };
  /** µs per write spent in the fence's steps since the last call. */
  const fenceShare = () => {
    const us = (inFence * 1000) / Math.max(fencedWrites, 1);
    inFence = 0;
    fencedWrites = 0;
    return us;
  };

  /** Microseconds per write, `writers` loops at once, each doing its share of the round. */
  const round = async (write: Write, writers: number): Promise<number> => {
    const each = WRITES_PER_ROUND / writers;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < each; i += 1) await write(writer, i);
      }),
    );
    return ((performance.now() - started) * 1000) / WRITES_PER_ROUND;
  };

  /**
   * Pairs of rounds, plain and fenced back to back (which goes first alternates), so both see
   * the same load; the figure is the median of the pairs' ratios, robust to a machine whose load
   * drifts during the run, beside the medians of each. One writer: the two kinds alternate write
   * by write within a round, each write timed on its own.
   */
  const measure = async (writers: number) => {
    await round(plain, writers); // warm-up of both, not counted
    await round(fenced, writers);
    fenceShare();
    const times = { plain: [] as number[], fenced: [] as number[] };
    const ratios: number[] = [];
    const rounds = writers === 1 ? ROUNDS.sequential : ROUNDS.fourWriters;
    for (let r = 0; r < rounds; r += 1) {
      const order = r % 2 === 0 ? (['plain', 'fenced'] as const) : (['fenced', 'plain'] as const);
      const pair = writers === 1 ? await alternating(order) : { plain: 0, fenced: 0 };
      if (writers > 1) {
        for (const name of order) {
          pair[name] = await round(name === 'plain' ? plain : fenced, writers);
        }
      }
      times.plain.push(pair.plain);
      times.fenced.push(pair.fenced);
      ratios.push(pair.fenced / pair.plain);
    }
    return {
      plainUs: median(times.plain),
      fencedUs: median(times.fenced),
      ratio: median(ratios),
      firstRatio: median(ratios.slice(0, FIRST_PAIRS)),
      fenceUs: fenceShare(),
    };
  };

  /** One writer, a plain and a fenced write in turn: µs per write of each. */
  const alternating = async (order: readonly ('plain' | 'fenced')[]) => {
    const total = { plain: 0, fenced: 0 };
    for (let i = 0; i < WRITES_PER_ROUND; i += 1) {
      for (const name of order) {
        const started = performance.now();
        await (name === 'plain' ? plain : fenced)(0, i);
        total[name] += performance.now() - started;
      }
    }
    return {
      plain: (total.plain * 1000) / WRITES_PER_ROUND,
      fenced: (total.fenced * 1000) / WRITES_PER_ROUND,
    };
  };

  try {
    const one = await measure(1);
    const four = await measure(4);
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `host fence: fenced write vs plain atomic write (${cpus().length} cores, load ${load})`,
    );
    console.log(
      `${ROUNDS.sequential} pairs of rounds of ${WRITES_PER_ROUND} writes for 1 writer, ${ROUNDS.fourWriters} for 4; µs per write (throughput), medians; ratio: median of the pairs' ratios`,
    );
    const row = (
      name: string,
      m: { plainUs: number; fencedUs: number; ratio: number; fenceUs: number },
    ) =>
      `${name.padEnd(12)} plain ${m.plainUs.toFixed(0).padStart(6)}  fenced ${m.fencedUs.toFixed(0).padStart(6)}  ratio ${m.ratio.toFixed(2)}×  (in the fence's own steps: ${m.fenceUs.toFixed(0)} µs per write)`;
    const first = (m: { firstRatio: number }) =>
      `; its first ${FIRST_PAIRS} pairs alone: ${m.firstRatio.toFixed(2)}×`;
    console.log(`${row('1 writer', one)}${first(one)}`);
    console.log(`${row('4 writers', four)}${first(four)}`);
    console.log(
      `ratios side by side: sequential ${one.ratio.toFixed(2)}×, 4 writers ${four.ratio.toFixed(2)}× (goal ≤ 1.30×)`,
    );
  } finally {
    await rm(base, { recursive: true, force: true });
    await rm(fenceTemp, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

await main();
