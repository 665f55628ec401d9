/**
 * Checks of the scripts read-only programs run: a `sed` script or an `awk` program passes only
 * when it cannot write a file, read another one or run a program. Both are allowlists (of shapes,
 * of words), so anything unusual is refused.
 */

/** A `sed` script that only prints, deletes, quits or substitutes (no `w`, `e`, `r`, `W`, `R`). */
export function sedScriptIsSafe(script: string): boolean {
  const address = String.raw`(?:\d+|\$|/[^/\\]*/)?(?:,(?:\d+|\$|/[^/\\]*/|\+\d+))?`;
  const print = new RegExp(String.raw`^\s*${address}\s*!?\s*[pdq=]?\s*$`);
  // The delimiter is `/`, `|`, `#`, `,` or `:`; no backslash may hide one, no flag but g p i I N.
  const substitute = new RegExp(
    String.raw`^\s*${address}\s*s([/|#,:])(?:(?!\1)[^\\]|\\[^\\/|#,:])*\1(?:(?!\1)[^\\]|\\[^\\/|#,:])*\1[gpiI0-9]*\s*$`,
  );
  return script.split(';').every((command) => print.test(command) || substitute.test(command));
}

/**
 * Words an awk program may put before `(`: functions that neither write, read a file, run a
 * program nor read the environment, and the statements written like calls.
 */
const AWK_FUNCTIONS = new Set(
  'length substr index split sub gsub match sprintf tolower toupper int sqrt exp log sin cos atan2 rand srand if while for print printf'.split(
    ' ',
  ),
);
/** Words an awk program may use that are not its own variables. */
const AWK_WORDS = new Set(
  'BEGIN END print printf next exit delete in if else while for do break continue NR NF FNR FS OFS RS ORS SUBSEP RSTART RLENGTH CONVFMT OFMT'.split(
    ' ',
  ),
);

/**
 * An awk program that cannot write, pipe, run a command or read another file or the
 * environment: no `>`, `|`, `@` (gawk's indirect calls and `@load`) or backquote; every
 * call is to a function of {@link AWK_FUNCTIONS}; every upper-case word and every keyword is in
 * {@link AWK_WORDS} (so no `getline`, `system`, `close`, `ARGV`, `ENVIRON`, `PROCINFO`); other
 * lower-case words are the program's own variables.
 */
export function awkProgramIsSafe(program: string): boolean {
  if (/[>|@`]/.test(program)) return false;
  for (const match of program.matchAll(/[A-Za-z_][A-Za-z0-9_]*(\s*\()?/g)) {
    const word = match[0].replace(/\s*\($/, '');
    if (match[1] !== undefined) {
      if (!AWK_FUNCTIONS.has(word)) return false;
    } else if (!AWK_WORDS.has(word) && (/[A-Z]/.test(word[0]!) || AWK_KEYWORDS.has(word))) {
      return false;
    }
  }
  return true;
}

/** Keywords and built-in names of awk, gawk and mawk that are not in {@link AWK_WORDS}. */
const AWK_KEYWORDS = new Set(
  'getline system close fflush function func return nextfile switch case default'.split(' '),
);
