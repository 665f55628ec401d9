import { readFileSync } from 'node:fs';

/**
 * Who holds a host-local lock: a process id and, on Linux, the process's start time (clock
 * ticks since boot, field 22 of `/proc/<pid>/stat`), so a pid reused by a later process is not
 * mistaken for the holder.
 */
export interface ProcessIdentity {
  readonly pid: number;
  /** `''` where `/proc` is not available. */
  readonly startTime: string;
}

/** This process, as it writes itself into a lock. */
export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startTime: startTimeOf(process.pid) ?? '' };
}

/**
 * Whether the process that wrote `holder` still exists. A stopped process (`SIGSTOP`, a frozen
 * container) still exists: its locks stay held, so a paused holder blocks the others rather than
 * being overtaken. Unsure (no permission to signal it) counts as alive.
 */
export function isAlive(holder: ProcessIdentity): boolean {
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (holder.startTime === '') return true;
  const now = startTimeOf(holder.pid);
  return now === undefined || now === holder.startTime;
}

function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces and parentheses): state is field 3
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}
