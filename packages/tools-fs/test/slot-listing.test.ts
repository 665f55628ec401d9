import { lstatSync, mkdirSync, rmSync, type Stats, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FenceFolder } from '../src/fence-folder.js';
import { listSlots } from '../src/slot-listing.js';
import { tempDir } from './temp-dir.js';

/** A fence folder whose last change is an hour old, as after a long quiet spell. */
async function quietFolder(): Promise<{ folder: FenceFolder; dir: string }> {
  const base = await tempDir();
  const dir = join(base, 'commits');
  mkdirSync(dir, { mode: 0o700 });
  writeFileSync(join(dir, 'b-1a-0000aaaa.slot'), '');
  writeFileSync(join(dir, 'b-1a-0000aaaa.sock'), '');
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(dir, hourAgo, hourAgo);
  return { folder: new FenceFolder({ dir, tempDir: base }), dir };
}

/**
 * Waits until the last change of `dir` is old enough for a listing of it to be kept: 1.1 s where
 * the file system keeps fractions of a second in the folder's times, 3 s where it keeps whole
 * seconds (the rule of `listSlots`), 0.2 s more for the clock's tick. The file system's clock,
 * not a timer under test.
 */
async function untilSettled(dir: string): Promise<void> {
  const { mtimeMs, ctimeMs } = lstatSync(dir);
  const fine = mtimeMs % 1000 !== 0 || ctimeMs % 1000 !== 0;
  await new Promise((resolve) => setTimeout(resolve, fine ? 1300 : 3200));
}

describe('listSlots', () => {
  it('lists the slots of the folder (not the sockets)', async () => {
    const { folder } = await quietFolder();
    expect(listSlots(folder)).toEqual(['1a-0000aaaa']);
  });

  it('sees a slot made right after a listing of a folder quiet for long (the listing is not reused)', async () => {
    const { folder, dir } = await quietFolder();
    // the folder's change time cannot be set back: wait until its last change is old enough
    // for a listing to be kept
    await untilSettled(dir);
    expect(listSlots(folder)).toEqual(['1a-0000aaaa']);
    expect(listSlots(folder)).toEqual(['1a-0000aaaa']);
    writeFileSync(join(dir, 'b-2b-0000bbbb.slot'), '');
    expect([...listSlots(folder)].sort()).toEqual(['1a-0000aaaa', '2b-0000bbbb']);
  }, 10_000);

  it('sees a slot removed right after a listing, and one made within the same moment as a change', async () => {
    const { folder, dir } = await quietFolder();
    expect(listSlots(folder)).toEqual(['1a-0000aaaa']);
    rmSync(join(dir, 'b-1a-0000aaaa.slot'));
    expect(listSlots(folder)).toEqual([]);
    // the folder changed a moment ago: every listing reads it again, so a change within the
    // file system's time granularity is never missed
    writeFileSync(join(dir, 'b-3c-0000cccc.slot'), '');
    expect(listSlots(folder)).toEqual(['3c-0000cccc']);
    writeFileSync(join(dir, 'b-4d-0000dddd.slot'), '');
    expect([...listSlots(folder)].sort()).toEqual(['3c-0000cccc', '4d-0000dddd']);
  });

  it('answers a second question with the same look at the folder as the first, and a new look as the folder is now', async () => {
    const { folder, dir } = await quietFolder();
    const look = lstatSync(dir);
    expect(listSlots(folder, { looked: look })).toEqual(['1a-0000aaaa']);
    writeFileSync(join(dir, 'b-2b-0000bbbb.slot'), '');
    // as of that look: the slot made after it is not in it
    expect(listSlots(folder, { looked: look })).toEqual(['1a-0000aaaa']);
    expect([...listSlots(folder, { looked: lstatSync(dir) })].sort()).toEqual([
      '1a-0000aaaa',
      '2b-0000bbbb',
    ]);
  });

  it('reuses a listing too young for its age to tell while the token records show no new arrival, and reads the folder again when they do or cannot tell', async () => {
    const base = await tempDir();
    const dir = join(base, 'fence');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'b-1a-0000aaaa.slot'), '');
    const folder = new FenceFolder({ dir, tempDir: base });
    let arrivals = 1;
    let current = true;
    const records = {
      get arrivals() {
        return arrivals;
      },
      current: () => current,
    };
    const look = lstatSync(dir);
    // the folder looks as it did then: what a slot made within the same tick of the file
    // system's clock as the last change would leave (a copy, not the same look)
    const asBefore = () => ({ ...look }) as Stats;
    expect(listSlots(folder, { looked: look, records })).toEqual(['1a-0000aaaa']);
    writeFileSync(join(dir, 'b-2b-0000bbbb.slot'), '');
    // no arrival record since: the listing stands (the process that made the slot has done
    // nothing else yet: it appends its arrival first)
    expect(listSlots(folder, { looked: asBefore(), records })).toEqual(['1a-0000aaaa']);
    // its arrival record read: the folder is read again
    arrivals = 2;
    expect([...listSlots(folder, { looked: asBefore(), records })].sort()).toEqual([
      '1a-0000aaaa',
      '2b-0000bbbb',
    ]);
    // records not read to their end, or none given: read again
    writeFileSync(join(dir, 'b-3c-0000cccc.slot'), '');
    current = false;
    expect(listSlots(folder, { looked: asBefore(), records })).toHaveLength(3);
    writeFileSync(join(dir, 'b-4d-0000dddd.slot'), '');
    expect(listSlots(folder, { looked: asBefore() })).toHaveLength(4);
  });

  it('after a write of the caller’s own, reuses the last listing with no look at the folder while the records show no new arrival, and reads the folder when they do or cannot tell', async () => {
    const { folder, dir } = await quietFolder();
    let arrivals = 1;
    let current = true;
    let asked = 0;
    const records = {
      get arrivals() {
        return arrivals;
      },
      current: () => {
        asked += 1;
        return current;
      },
    };
    const after = { records, recordsAfterWrite: true };
    // no listing yet: the folder is read (with the arrivals read so far)
    expect(listSlots(folder, { looked: lstatSync(dir), records })).toEqual(['1a-0000aaaa']);
    writeFileSync(join(dir, 'b-2b-0000bbbb.slot'), '');
    // the process that made the slot has not appended its arrival: the listing stands, and the
    // records were asked, the folder not looked at (its change would have shown)
    expect(listSlots(folder, after)).toEqual(['1a-0000aaaa']);
    expect(asked).toBe(1);
    // its arrival read since: the folder is read again
    arrivals = 2;
    expect([...listSlots(folder, after)].sort()).toEqual(['1a-0000aaaa', '2b-0000bbbb']);
    // records not read to their end: read again
    writeFileSync(join(dir, 'b-3c-0000cccc.slot'), '');
    current = false;
    expect(listSlots(folder, after)).toHaveLength(3);
    // records not live (a claim's, read before): never asked for this, the folder looked at
    current = true;
    writeFileSync(join(dir, 'b-4d-0000dddd.slot'), '');
    const before = asked;
    expect(listSlots(folder, { records })).toHaveLength(4);
    expect(asked).toBe(before);
  });

  it('reads a young listing’s folder once more when the folder has grown old enough, so the next listing is reused by its age', async () => {
    const base = await tempDir();
    const dir = join(base, 'fence');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'b-1a-0000aaaa.slot'), '');
    const folder = new FenceFolder({ dir, tempDir: base });
    const records = { arrivals: 0, current: () => true };
    const look = lstatSync(dir);
    expect(listSlots(folder, { looked: look, records })).toEqual(['1a-0000aaaa']);
    // past the age a listing needs
    await untilSettled(dir);
    // a slot the look does not show (made within the last change's tick, as the test pretends)
    writeFileSync(join(dir, 'b-2b-0000bbbb.slot'), '');
    const asBefore = { ...look } as Stats;
    expect([...listSlots(folder, { looked: asBefore, records })].sort()).toEqual([
      '1a-0000aaaa',
      '2b-0000bbbb',
    ]);
  }, 10_000);
});
