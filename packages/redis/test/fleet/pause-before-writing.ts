import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';
import { PAUSED_LINE } from './agent-config.js';

/**
 * Makes this process stop itself (`SIGSTOP`) the first time it is about to write `name`, as a GC
 * pause or a frozen container would stop it at the worst moment: after reading, before
 * replacing. For the fs tools that is the creation of the file's draft (`.<name>.<hex>.tmp`,
 * written just before the commit), caught by wrapping `fs/promises.open` for the whole process,
 * or, `at: 'commit'`, the rename of that draft over the file (inside the commit step, the fence
 * passed), caught by wrapping `fs/promises.rename`;
 * for a tool of its own the returned function is called before its write. It prints
 * {@link PAUSED_LINE} first (stdout to a pipe is synchronous on Linux). Nothing when `name` is unset.
 */
export function pauseBeforeWriting(
  name: string | undefined,
  options: { readonly at?: 'draft' | 'commit' | undefined } = {},
): (what: string) => void {
  if (name === undefined) return () => undefined;
  let paused = false;
  const pause = (what: string): void => {
    if (paused || what !== name) return;
    paused = true;
    process.stdout.write(`${PAUSED_LINE}\n`);
    process.kill(process.pid, 'SIGSTOP');
  };
  const isDraft = (path: unknown) => {
    const file = basename(String(path));
    return file.startsWith(`.${name}.`) && file.endsWith('.tmp');
  };
  if (options.at === 'commit') {
    // the draft renamed over the file: inside the commit step, after the fence's check
    const rename = fsPromises.rename;
    fsPromises.rename = ((from: Parameters<typeof rename>[0], to: Parameters<typeof rename>[1]) => {
      if (isDraft(from)) pause(name);
      return rename(from, to);
    }) as typeof rename;
  } else {
    const open = fsPromises.open;
    fsPromises.open = ((path: Parameters<typeof open>[0], ...rest: unknown[]) => {
      if (rest[0] === 'wx' && isDraft(path)) pause(name);
      return (open as (...args: unknown[]) => ReturnType<typeof open>)(path, ...rest);
    }) as typeof open;
  }
  syncBuiltinESMExports();
  return pause;
}
