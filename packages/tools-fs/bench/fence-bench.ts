/**
 * The cost of the host fence: a fenced write (what `write_file` does with a fencing token: claim
 * the key when it starts, draft the new content, commit through the fence) against a plain
 * atomic write (draft, rename), side by side in one run, one writer and four writers at once
 * (each on its own files). Rounds alternate between the two so drift hits both; the figures are
 * medians over the rounds. Run: `pnpm --filter @toolwaves/tools-fs bench`.
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultFenceTempDir, draftFile, fsKey, HostFence } from '../src/index.js';

const ROUNDS = 7;
const WRITES_PER_ROUND = 200;
const FILES_PER_WRITER = 20;

type Write = (writer: number, i: number) => Promise<void>;

async function main(): Promise<void> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-fence-bench-')));
  const root = join(base, 'root');
  const fenceTemp = await mkdtemp(join(defaultFenceTempDir(), 'toolwaves-fence-bench-'));
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
  const fenced: Write = async (writer, i) => {
    token += 1;
    const file = target('fenced', writer, i);
    const write = { keys: [fsKey(file)], token, what: `\`${file}\`` };
    await fence.claim(write);
    const draft = await draftFile({ target: file, content: `${i}\n` });
    try {
      await fence.commit(write, () => draft.commit());
    } finally {
      await draft.discard();
    }
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

  const measure = async (writers: number) => {
    await round(plain, writers); // warm-up of both, not counted
    await round(fenced, writers);
    const times = { plain: [] as number[], fenced: [] as number[] };
    for (let r = 0; r < ROUNDS; r += 1) {
      // alternate which goes first, so neither always runs on a warmer disk cache
      const order = r % 2 === 0 ? (['plain', 'fenced'] as const) : (['fenced', 'plain'] as const);
      for (const name of order)
        times[name].push(await round(name === 'plain' ? plain : fenced, writers));
    }
    return { plainUs: median(times.plain), fencedUs: median(times.fenced) };
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
      `${ROUNDS} rounds of ${WRITES_PER_ROUND} writes, medians, µs per write (throughput)`,
    );
    const row = (name: string, m: { plainUs: number; fencedUs: number }) =>
      `${name.padEnd(12)} plain ${m.plainUs.toFixed(0).padStart(6)}  fenced ${m.fencedUs.toFixed(0).padStart(6)}  ratio ${(m.fencedUs / m.plainUs).toFixed(2)}×`;
    console.log(row('1 writer', one));
    console.log(row('4 writers', four));
    console.log(
      `ratios side by side: sequential ${(one.fencedUs / one.plainUs).toFixed(2)}×, 4 writers ${(four.fencedUs / four.plainUs).toFixed(2)}× (goal ≤ 1.30×)`,
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
