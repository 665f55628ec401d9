import { readFileSync, readlinkSync } from 'node:fs';

/**
 * Who holds a commit of the host fence, as it writes itself beside its lock: a process id and
 * the PID namespace it was read in. A pid means something only in its own namespace (two
 * containers on one host each have a pid 7), so it is shown to people, never used to decide
 * whether the holder lives: that is the kernel's answer on the holder's socket (see
 * `HostCommitLock`).
 */
export interface ProcessIdentity {
  readonly pid: number;
  /** `readlink /proc/self/ns/pid` (e.g. `pid:[4026531836]`); `''` where `/proc` is not there. */
  readonly pidNamespace: string;
}

/** What is known of a holder's state: `stopped` (`SIGSTOP`, a frozen cgroup, a debugger). */
export type ProcessState = 'running' | 'stopped' | 'gone' | 'unknown';

let self: ProcessIdentity | undefined;

/** This process, as it writes itself beside a lock. */
export function currentProcess(): ProcessIdentity {
  self ??= { pid: process.pid, pidNamespace: pidNamespaceOf('self') ?? '' };
  return self;
}

/**
 * The state of a holder: read from `/proc/<pid>/stat` (state `T` or `t`: stopped) when the
 * holder wrote itself in this process's PID namespace, `unknown` otherwise (its pid would name
 * another process here).
 */
export function processState(holder: ProcessIdentity): ProcessState {
  const here = currentProcess().pidNamespace;
  if (here === '' || holder.pidNamespace !== here) return 'unknown';
  let stat: string;
  try {
    stat = readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unknown';
  }
  // the command name (field 2) may hold spaces and parentheses: the state follows the last `)`
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'T' || state === 't' ? 'stopped' : 'running';
}

/** How a holder is named in a message: its pid, its namespace when not ours, and its state. */
export function describeHolder(holder: ProcessIdentity): string {
  const state = processState(holder);
  const here = currentProcess().pidNamespace;
  const where =
    holder.pidNamespace === here ? '' : ` in another PID namespace (${holder.pidNamespace || '?'})`;
  const shown = state === 'unknown' ? 'stopped: unknown' : state;
  return `pid ${holder.pid}${where}, ${shown}`;
}

function pidNamespaceOf(pid: 'self' | number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}
