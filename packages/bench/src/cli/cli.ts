import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError } from '../bench-error.js';
import { headlineMarkdown } from '../report/headline-markdown.js';
import { renderHtml } from '../report/render-html.js';
import { renderJson } from '../report/render-json.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { replaceHeadline } from '../report/replace-headline.js';
import { runBench } from '../run-bench.js';
import { defaultStrategies } from '../strategies/default-strategies.js';
import { loadTraceMappings } from '../trace/load-trace-mappings.js';
import { readTrace } from '../trace/read-trace.js';
import { renderTraceHtml, renderTraceMarkdown } from '../trace/render-trace-report.js';
import { replayTrace } from '../trace/replay-trace.js';
import { BENCH_USAGE, type BenchArgs, parseBenchArgs } from './parse-bench-args.js';
import { createProgress } from './progress.js';
import { writeFileAtomically } from './write-file-atomically.js';

/** `pnpm bench`: runs the benchmark, prints the headline, writes the reports. */
async function main(argv: readonly string[]): Promise<void> {
  const args = parseBenchArgs(argv);
  if (args.help) {
    process.stdout.write(`${BENCH_USAGE}\n`);
    return;
  }
  const started = performance.now();
  const out =
    args.out === undefined
      ? fileURLToPath(new URL('../../../../bench-results/', import.meta.url))
      : resolve(process.env.INIT_CWD ?? process.cwd(), args.out);
  if (args.trace !== undefined) {
    await runTrace({ args, out, started });
    return;
  }
  const stop = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\ninterrupted: removing the temporary workspace, writing no report...\n');
    stop.abort(new BenchError({ code: 'interrupted', message: 'interrupted: no report written' }));
  });
  const progress = createProgress({ stream: process.stderr });
  const command = [
    'pnpm bench',
    ...argv.filter((arg) => arg !== '--update-readme' && arg !== '--'),
  ].join(' ');
  const report = await runBench({
    strategies: defaultStrategies({
      ...(args.optimalBudgetMs === undefined ? {} : { optimalBudgetMs: args.optimalBudgetMs }),
      ...(args.optimalExpansions === undefined
        ? {}
        : { optimalExpansions: args.optimalExpansions }),
    }),
    quick: args.quick,
    seed: args.seed,
    maxConcurrency: args.maxConcurrency,
    ...(args.tokenRate === undefined ? {} : { tokensPerSecond: args.tokenRate }),
    profile: {
      ...(args.real ? {} : { realBudgetMs: 0, streamBudgetMs: 0 }),
      ...(args.scaling ? {} : { scalingSizes: [] }),
      ...(args.seeds === undefined ? {} : { seeds: args.seeds }),
    },
    progress,
    command,
    signal: stop.signal,
  });
  await writeFileAtomically({ path: join(out, 'report.md'), content: renderMarkdown(report) });
  await writeFileAtomically({ path: join(out, 'report.json'), content: renderJson(report) });
  await writeFileAtomically({ path: join(out, 'report.html'), content: renderHtml(report) });
  progress.finish(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const headline = headlineMarkdown(report);
  process.stdout.write(`${headline}\n\nReports: ${join(out, 'report.{md,json,html}')}\n`);
  if (args.updateReadme) {
    const packageDir = fileURLToPath(new URL('../../', import.meta.url));
    const readme = await readFile(resolve(packageDir, 'README.md'), 'utf8');
    await writeFileAtomically({
      path: resolve(packageDir, 'README.md'),
      content: replaceHeadline({ readme, headline }),
    });
    process.stdout.write('README.md headline updated\n');
  }
}

/** `pnpm bench --trace FILE [--map MODULE]`: replays the transcript, writes trace-report.*. */
async function runTrace(options: { args: BenchArgs; out: string; started: number }): Promise<void> {
  const { args, out } = options;
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const file = resolve(cwd, args.trace!);
  const content = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new BenchError({
      code: 'invalid_trace',
      message: `Could not read the --trace file \`${args.trace}\`: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  });
  const trace = readTrace(content);
  const mappings =
    args.map === undefined ? undefined : await loadTraceMappings({ path: args.map, cwd });
  const report = replayTrace({
    trace,
    strategies: defaultStrategies({
      ...(args.optimalBudgetMs === undefined ? {} : { optimalBudgetMs: args.optimalBudgetMs }),
      ...(args.optimalExpansions === undefined
        ? {}
        : { optimalExpansions: args.optimalExpansions }),
    }),
    ...(mappings === undefined ? {} : { mappings }),
    maxConcurrency: args.maxConcurrency,
    seed: args.seed,
    ...(args.tokenRate === undefined ? {} : { tokensPerSecond: args.tokenRate }),
    file: args.trace!,
    command: ['pnpm bench', ...process.argv.slice(2).filter((arg) => arg !== '--')].join(' '),
  });
  await writeFileAtomically({
    path: join(out, 'trace-report.md'),
    content: renderTraceMarkdown(report),
  });
  await writeFileAtomically({ path: join(out, 'trace-report.json'), content: renderJson(report) });
  await writeFileAtomically({
    path: join(out, 'trace-report.html'),
    content: renderTraceHtml(report),
  });
  const seconds = ((performance.now() - options.started) / 1000).toFixed(1);
  process.stdout.write(
    `${renderTraceMarkdown(report)}\nReplayed in ${seconds} s. Reports: ${join(out, 'trace-report.{md,json,html}')}\n`,
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `\n${error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
