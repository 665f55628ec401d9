import { BenchError } from '../bench-error.js';

/** Marks the start of the generated headline in a README. */
export const HEADLINE_START = '<!-- bench:headline:start -->';
/** Marks its end. */
export const HEADLINE_END = '<!-- bench:headline:end -->';

/**
 * Puts a new headline between the {@link HEADLINE_START} and {@link HEADLINE_END} markers of a
 * README (pure), keeping everything else; what `pnpm bench --update-readme` does.
 *
 * @throws {BenchError} `invalid_options` when the markers are missing or out of order.
 * @example replaceHeadline({ readme, headline: headlineMarkdown(report) });
 */
export function replaceHeadline(options: { readme: string; headline: string }): string {
  const { readme, headline } = options;
  const start = readme.indexOf(HEADLINE_START);
  const end = readme.indexOf(HEADLINE_END);
  if (start === -1 || end === -1 || end < start) {
    throw new BenchError({
      code: 'invalid_options',
      message: `Expected the README to hold \`${HEADLINE_START}\` followed by \`${HEADLINE_END}\``,
    });
  }
  return `${readme.slice(0, start + HEADLINE_START.length)}\n\n${headline.trim()}\n\n${readme.slice(end)}`;
}
