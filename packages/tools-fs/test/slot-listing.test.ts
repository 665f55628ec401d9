import { lstatSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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

describe('listSlots', () => {
  it('lists the slots of the folder (not the sockets)', async () => {
    const { folder } = await quietFolder();
    expect(listSlots(folder)).toEqual(['1a-0000aaaa']);
  });

  it('sees a slot made right after a listing of a folder quiet for long (the listing is not reused)', async () => {
    const { folder, dir } = await quietFolder();
    // the folder's change time cannot be set back: wait until its last change is old enough
    // for a listing to be kept (the file system's clock, not a timer under test)
    await new Promise((resolve) => setTimeout(resolve, 3100));
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
});
