import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchError } from '../bench-error.js';
import { headlineMarkdown } from '../report/headline-markdown.js';
import { renderHtml } from '../report/render-html.js';
import { renderJson } from '../report/render-json.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { runBench } from '../run-bench.js';
import { defaultStrategies } from '../strategies/default-strategies.js';
import { loadTraceMappings } from '../trace/load-trace-mappings.js';
import { readTrace } from '../trace/read-trace.js';
import { renderTraceHtml, renderTraceMarkdown } from '../trace/render-trace-report.js';
import { replayTrace } from '../trace/replay-trace.js';
import { BENCH_USAGE, parseBenchArgs } from './parse-bench-args.js';
import { createProgress } from './progress.js';
import { writeFileAtomically } from './write-file-atomically.js';

/** `pnpm bench`: runs the benchmark (or replays `--trace`), prints it, writes the reports. */
async function main(argv: readonly string[]): Promise<void> {
  const args = parseBenchArgs(argv);
  if (args.help) {
    process.stdout.write(`${BENCH_USAGE}\n`);
    return;
  }
  const started = performance.now();
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const out =
    args.out === undefined
      ? fileURLToPath(new URL('../../../../bench-results/', import.meta.url))
      : resolve(cwd, args.out);
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const { optimalExpansions } = args;
  const strategies = defaultStrategies(
    optimalExpansions === undefined ? {} : { optimalExpansions },
  );
  const command = ['pnpm bench', ...argv.filter((arg) => arg !== '--')].join(' ');
  const tokenRate = args.tokenRate === undefined ? {} : { tokensPerSecond: args.tokenRate };
  /** Writes `<name>.md`, `.json` and `.html`, each atomically; returns where. */
  const write = async (name: string, files: { md: string; json: string; html: string }) => {
    for (const [extension, content] of Object.entries(files)) {
      await writeFileAtomically({ path: join(out, `${name}.${extension}`), content });
    }
    return join(out, `${name}.{md,json,html}`);
  };
  if (args.trace !== undefined) {
    const content = await readFile(resolve(cwd, args.trace), 'utf8').catch((error: unknown) => {
      throw new BenchError({
        code: 'invalid_trace',
        message: `Could not read the --trace file \`${args.trace}\`: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    });
    const trace = readTrace(content);
    const mappings =
      args.map === undefined ? {} : { mappings: await loadTraceMappings({ path: args.map, cwd }) };
    const report = replayTrace({
      trace,
      strategies,
      ...mappings,
      maxConcurrency: args.maxConcurrency,
      seed: args.seed,
      ...tokenRate,
      file: args.trace,
      command,
    });
    const markdown = renderTraceMarkdown(report);
    const where = await write('trace-report', {
      md: markdown,
      json: renderJson(report),
      html: renderTraceHtml(report),
    });
    process.stdout.write(`${markdown}\nReplayed in ${seconds()} s. Reports: ${where}\n`);
    return;
  }
  const stop = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\ninterrupted: removing the temporary workspace, writing no report...\n');
    stop.abort(new BenchError({ code: 'interrupted', message: 'interrupted: no report written' }));
  });
  const progress = createProgress({ stream: process.stderr });
  const report = await runBench({
    strategies,
    quick: args.quick,
    seed: args.seed,
    maxConcurrency: args.maxConcurrency,
    ...tokenRate,
    profile: {
      ...(args.real ? {} : { streamBudgetMs: 0 }),
      ...(args.seeds === undefined ? {} : { seeds: args.seeds }),
    },
    progress,
    command,
    signal: stop.signal,
  });
  const where = await write('report', {
    md: renderMarkdown(report),
    json: renderJson(report),
    html: renderHtml(report),
  });
  progress.finish(`done in ${seconds()} s`);
  process.stdout.write(`${headlineMarkdown(report)}\n\nReports: ${where}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `\n${error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
