import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { fenceError } from './fence-errors.js';
import type { FenceFolder } from './fence-folder.js';

const SLOT = /^b-([0-9a-z]+-[0-9a-f]+)\.slot$/;

/**
 * How long after the folder's last change a listing is taken before it may be reused. A change
 * made after a listing sets the folder's modification time to the time of that change (POSIX:
 * creating, renaming or removing an entry updates the folder's `mtime` and `ctime`), which is
 * then later than the listing; but a file system keeps times at its own granularity (a clock
 * tick; a second or two on some), so a change within that granularity of the previous one may
 * leave the time as it was. A listing taken well after the last change cannot be confused so.
 * Times in whole seconds may come from a file system that keeps no less (up to 2 s): 3 s then.
 */
const SETTLED_MS = 3000;
/**
 * The same for a folder whose times have a fraction of a second: its file system keeps them
 * finer than a second (nanoseconds, read from a clock that ticks every few milliseconds).
 */
const SETTLED_FINE_MS = 1100;

interface Listing {
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly size: number;
  /** `Date.now()` right before the folder was read. */
  readonly listedAt: number;
  /** `performance.now()` right before the folder was read. */
  readonly listedTick: number;
  /**
   * Taken long enough after the folder's last change (as its times were then): reusable while
   * the folder shows the same times. One that is not is never reused (the times it would be
   * compared with are the same), so this is decided once, when the folder is read.
   */
  readonly settled: boolean;
  readonly beacons: readonly string[];
  /**
   * The arrival records the caller's token records had shown when the folder was read (see
   * {@link ArrivalRecords}): a listing taken too soon after a change to be reused by its age is
   * reused while they show no other.
   */
  readonly arrivals: number | undefined;
  /**
   * The caller's look at the folder this listing was read or confirmed with: a second call with
   * the same look (the same `Stats` object, taken once) answers this listing again, as of that
   * look, without reading the folder again.
   */
  looked?: Stats | undefined;
}

/**
 * What the token records tell about the processes that made their slot: every process appends
 * an arrival record (`a <beacon>`) right after making its slot, before anything else (see
 * `FenceStore.arrive`). So when no arrival record was appended since a listing was read (the
 * records read to their end now show as many as then), no process has made a slot since, or
 * the one that did has done nothing yet, and will see what this process wrote before it.
 */
export interface ArrivalRecords {
  /** How many arrival records were read so far. */
  readonly arrivals: number;
  /** Whether every record has been read, as of now (one `fstat`). */
  current(): boolean;
}

/** How long after a change of this folder a listing of it may be reused. */
function settledMs(info: Stats): number {
  const fine = info.mtimeMs % 1000 !== 0 || info.ctimeMs % 1000 !== 0;
  return fine ? SETTLED_FINE_MS : SETTLED_MS;
}

/** The last listing per folder. */
const listings = new Map<string, Listing>();
/**
 * Per folder: the listing the last {@link listSlots} answered with, when that listing tells who
 * is there (settled, and the folder unchanged since); none otherwise.
 */
const validated = new Map<string, Listing>();

/**
 * Since when (`performance.now()`) no slot but `beacon`'s has been in `folder`, as the last
 * {@link listSlots} of the folder found it: `undefined` when it found another, or a listing
 * that cannot tell (taken too soon after a change). Every process makes its slot before it
 * writes anything else into the fence, and a clean exit removes it last, so nothing but the
 * process of `beacon` can have written into the fence in between.
 */
export function soleSince(folder: FenceFolder, beacon: string): number | undefined {
  const listing = validated.get(folder.dir);
  if (listing === undefined || listing.beacons.length !== 1 || listing.beacons[0] !== beacon) {
    return undefined;
  }
  return listing.listedTick;
}

/**
 * Whether the last {@link listSlots} of `folder` found no slot but `beacon`'s, settled or not:
 * a listing read right after a change tells who was there when it was read, though not that
 * nobody came and went since an earlier one (see {@link soleSince} for that).
 */
export function listedAlone(folder: FenceFolder, beacon: string): boolean {
  const listing = listings.get(folder.dir);
  return listing !== undefined && listing.beacons.length === 1 && listing.beacons[0] === beacon;
}

/** Whether `last` still tells who is in the folder, by its age, as `info` shows it now. */
function unchanged(last: Listing, info: Stats, now: number): boolean {
  return (
    last.ino === info.ino &&
    last.mtimeMs === info.mtimeMs &&
    last.ctimeMs === info.ctimeMs &&
    last.size === info.size &&
    now >= last.listedAt
  );
}

/**
 * Whether the last listing of `folder` still tells who is there, as `looked` (the caller's
 * `lstat`, just taken) shows the folder, by its age alone: then {@link soleSince} answers from
 * it. The folder is not read (nor the token records asked): `false` when only that could tell.
 */
export function confirmListing(folder: FenceFolder, looked: Stats): boolean {
  const last = listings.get(folder.dir);
  if (last !== undefined && last.looked === looked) return validated.get(folder.dir) === last;
  if (last === undefined || !last.settled || !unchanged(last, looked, Date.now())) {
    validated.delete(folder.dir);
    return false;
  }
  validated.set(folder.dir, last);
  last.looked = looked;
  return true;
}

/**
 * The beacon ids of the slots in a fence folder (`b-<id>.slot`), as they are now. The folder is
 * read again only when it changed since the last listing (its inode, modification and change
 * times, size), or when that listing was taken too soon after a change to tell by its age (see
 * `SETTLED_MS`, `SETTLED_FINE_MS`) and the token records (`records`) do not tell that no
 * process made a slot since: one `lstat` instead of a read of the whole folder on every commit,
 * while no process comes or goes.
 */
export function listSlots(
  folder: FenceFolder,
  options: {
    /** An `lstat` of the folder the caller took just now (its check): not taken again. */
    readonly looked?: Stats | undefined;
    /**
     * The caller's token records, asked only for a listing too young to be reused by its age:
     * taken after the caller's own write that this listing must follow.
     */
    readonly records?: ArrivalRecords | undefined;
    /**
     * `records` answer as the file is now (`current` reads it), and the caller's own write that
     * this listing must follow is out: while they show no arrival since the last listing was
     * read, that listing is answered with no look at the folder at all (one `fstat` of the
     * records instead of an `lstat` of the folder). What a commit asks right after its intent.
     */
    readonly recordsAfterWrite?: boolean | undefined;
  } = {},
): readonly string[] {
  const { records } = options;
  if (options.looked === undefined && options.recordsAfterWrite === true && records !== undefined) {
    const kept = keptByRecords(folder, records);
    if (kept !== undefined) return kept;
  }
  let info: Stats;
  try {
    info = options.looked ?? lstatSync(folder.dir);
  } catch (error) {
    validated.delete(folder.dir);
    throw fenceError({ error, path: folder.dir, doing: 'list the commit intents in' });
  }
  const last = listings.get(folder.dir);
  // asked again with the same look (a claim's two questions): the same answer, as of that look
  if (options.looked !== undefined && last?.looked === options.looked) return last.beacons;
  const now = Date.now();
  // old enough now for a listing read now to be reused by its age: read once more, so that
  // the next ones need no records (a young listing never becomes settled)
  const settledNow = now - Math.max(info.mtimeMs, info.ctimeMs) >= settledMs(info);
  if (
    last !== undefined &&
    unchanged(last, info, now) &&
    (last.settled ||
      (!settledNow &&
        records !== undefined &&
        last.arrivals === records.arrivals &&
        records.current()))
  ) {
    validated.set(folder.dir, last);
    last.looked = options.looked;
    return last.beacons;
  }
  // the arrival records read so far, before the folder is read: any appended later is news
  const arrivals = records?.arrivals;
  const listedTick = performance.now();
  let names: string[];
  try {
    names = readdirSync(folder.dir);
  } catch (error) {
    validated.delete(folder.dir);
    throw fenceError({ error, path: folder.dir, doing: 'list the commit intents in' });
  }
  const beacons: string[] = [];
  for (const name of names) {
    const beacon = SLOT.exec(name)?.[1];
    if (beacon !== undefined) beacons.push(beacon);
  }
  const listing: Listing = {
    ino: info.ino,
    mtimeMs: info.mtimeMs,
    ctimeMs: info.ctimeMs,
    size: info.size,
    listedAt: now,
    listedTick,
    settled: settledNow,
    beacons,
    arrivals,
    looked: options.looked,
  };
  listings.set(folder.dir, listing);
  if (listing.settled) validated.set(folder.dir, listing);
  else validated.delete(folder.dir);
  return beacons;
}

/**
 * The last listing of `folder`, when the token records, read to their end now, show no arrival
 * record beyond those read before that listing was read: every process appends one right after
 * making its slot and before anything else, so no process has made a slot since, or the one
 * that did has done nothing yet and will see what the caller wrote before asking (its own intent
 * or record, then its listing of the folder). Slots removed since only cost a read that finds
 * them gone. `undefined` when the records cannot tell (the listing took none, or something was
 * appended).
 */
function keptByRecords(
  folder: FenceFolder,
  records: ArrivalRecords,
): readonly string[] | undefined {
  const last = listings.get(folder.dir);
  if (last === undefined || last.arrivals !== records.arrivals || !records.current()) {
    return undefined;
  }
  validated.set(folder.dir, last);
  last.looked = undefined;
  return last.beacons;
}
