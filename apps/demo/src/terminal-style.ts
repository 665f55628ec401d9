/** Styles for terminal output: ANSI colours when the stream supports them, plain text otherwise. */
export interface TerminalStyle {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly green: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly magenta: (text: string) => string;
}

/**
 * Colour when the stream is a TTY (or `FORCE_COLOR` is set), unless `NO_COLOR` is set.
 */
export function terminalStyle(options: {
  stream: { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}): TerminalStyle {
  const { env, stream } = options;
  const colour =
    env.NO_COLOR === undefined &&
    (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' ? true : stream.isTTY === true);
  const paint = (open: number, close: number) => (text: string) =>
    colour ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: paint(1, 22),
    dim: paint(2, 22),
    green: paint(32, 39),
    red: paint(31, 39),
    yellow: paint(33, 39),
    cyan: paint(36, 39),
    magenta: paint(35, 39),
  };
}
