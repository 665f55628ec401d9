import { statSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { FenceBeacon } from './fence-beacon.js';
import type { FenceFolder } from './fence-folder.js';

/** Idle slots of other processes in a listing from which a sweep is worth it. */
const SWEEP_FROM = 8;
/** A slot with no socket beside it this long after it was made belongs to no live process. */
const UNPUBLISHED_MS = 60_000;

/** Per folder: a sweep in flight, and how many idle slots the last sweep left. */
const sweeps = new Map<string, { running: boolean; left: number }>();

/**
 * Removes, in the background, the slots (and sockets) of processes that were killed while idle:
 * a commit never probes an idle slot, so nothing else would. Called with the idle slots a
 * listing met; it sweeps when they are many and more than the last sweep left (live idle
 * processes are not probed again and again). A slot is removed only when its process is known
 * to be dead: its socket refuses connections, or it never had one and was made over a minute
 * ago (a starting process publishes its socket right after its slot).
 */
export function sweepIdleSlots(folder: FenceFolder, idleBeacons: readonly string[]): void {
  const state = sweeps.get(folder.dir) ?? { running: false, left: 0 };
  sweeps.set(folder.dir, state);
  if (state.running || idleBeacons.length < SWEEP_FROM || idleBeacons.length <= state.left) {
    return;
  }
  state.running = true;
  Promise.all(idleBeacons.map((beacon) => sweepOne(folder, beacon))).then((removed) => {
    state.running = false;
    state.left = removed.filter((gone) => !gone).length;
  });
}

/** Whether the beacon's slot was removed (its process is dead). */
function sweepOne(folder: FenceFolder, beacon: string): Promise<boolean> {
  const slot = FenceBeacon.slotPath(folder, beacon);
  const socketPath = FenceBeacon.socketPath(folder, beacon);
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      const dead = error.code === 'ECONNREFUSED' || (error.code === 'ENOENT' && madeLongAgo(slot));
      if (dead) {
        for (const path of [slot, socketPath]) {
          try {
            unlinkSync(path);
          } catch {
            // removed by another sweeper first
          }
        }
      }
      resolve(dead);
    });
  });
}

function madeLongAgo(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > UNPUBLISHED_MS;
  } catch {
    return false;
  }
}
