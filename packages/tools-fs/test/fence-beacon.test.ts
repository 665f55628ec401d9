import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { probe, waitForTurn } from '../src/commit-peers.js';
import { FenceBeacon } from '../src/fence-beacon.js';
import { FenceFolder } from '../src/fence-folder.js';
import { readSlot } from '../src/intent-slot.js';
import { currentProcess } from '../src/process-identity.js';
import { tempDir } from './temp-dir.js';

afterEach(() => {
  vi.useRealTimers();
});

/** This process's beacon in a fresh fence folder, and a reader of its slot as others see it. */
async function beaconInFreshFolder() {
  const base = await tempDir();
  const folder = new FenceFolder({ dir: join(base, 'fence'), tempDir: base });
  folder.check();
  const beacon = await FenceBeacon.of(folder);
  const slot = () => readSlot(FenceBeacon.slotPath(folder, beacon.id));
  const peer = (id: string) => ({ id, beacon: beacon.id, holder: currentProcess() });
  return { folder, beacon, slot, peer };
}

const KEY = 'fs:/srv/repo/a.txt';

describe('an intent ended lazily (its process alone in the fence)', () => {
  it('stays in the slot until the event loop’s next check phase, then the slot is rewritten', async () => {
    const { beacon, slot } = await beaconInFreshFolder();
    beacon.activate({ id: '1-1-x', keys: [KEY] });
    beacon.deactivate('1-1-x', { lazily: true });
    expect(beacon.active.size).toBe(0);
    // what a process arriving right now reads: the ended intent
    expect(slot()).toMatchObject({ intents: [{ id: '1-1-x', keys: [KEY] }] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(slot()).toBe('empty');
  });

  it('a process that reads the ended intent and asks the beacon about it is answered at once, the slot rewritten before the answer', async () => {
    const { folder, beacon, slot, peer } = await beaconInFreshFolder();
    // the rewrite of the check phase does not come: only the answer can rewrite the slot
    vi.useFakeTimers({ toFake: ['setImmediate'] });
    beacon.activate({ id: '1-2-x', keys: [KEY] });
    beacon.deactivate('1-2-x', { lazily: true });
    expect(slot()).toMatchObject({ intents: [{ id: '1-2-x' }] });
    const asked = await probe(folder, peer('1-2-x'));
    expect(asked.state).toBe('live');
    const socket = asked.state === 'live' ? asked.socket : undefined;
    // the connection closes at once: the intent is not held (a bound far beyond the test's)
    expect(await waitForTurn({ socket, ms: 60_000, signal: undefined })).toBe('turn');
    expect(slot()).toBe('empty');
  });

  it('is rewritten at once when someone waits for an intent of the process, and the waiter is told', async () => {
    const { folder, beacon, slot, peer } = await beaconInFreshFolder();
    vi.useFakeTimers({ toFake: ['setImmediate'] });
    beacon.activate({ id: '1-3-x', keys: [KEY] });
    const asked = await probe(folder, peer('1-3-x'));
    const socket = asked.state === 'live' ? asked.socket : undefined;
    expect(socket).toBeDefined();
    // the beacon has taken the waiter in when its question arrived
    await vi.waitFor(() => expect(beacon.waiting).toBe(1), { interval: 5 });
    const turn = waitForTurn({ socket, ms: 60_000, signal: undefined });
    beacon.deactivate('1-3-x', { lazily: true });
    expect(slot()).toBe('empty');
    expect(await turn).toBe('turn');
  });

  it('while another intent of the process is active, stays until the last one ends, then one rewrite in the next check phase', async () => {
    const { folder, beacon, slot, peer } = await beaconInFreshFolder();
    const B = 'fs:/srv/repo/b.txt';
    beacon.activate({ id: '1-6-x', keys: [KEY] });
    beacon.activate({ id: '1-7-x', keys: [B] });
    beacon.deactivate('1-6-x', { lazily: true });
    await new Promise((resolve) => setImmediate(resolve));
    // not rewritten for the first: the second is still claiming its turn
    expect(slot()).toMatchObject({ intents: [{ id: '1-6-x' }, { id: '1-7-x' }] });
    // a process that reads the ended one meanwhile is answered at once, the slot rewritten first
    const asked = await probe(folder, peer('1-6-x'));
    const socket = asked.state === 'live' ? asked.socket : undefined;
    expect(socket).toBeDefined();
    expect(await waitForTurn({ socket, ms: 60_000, signal: undefined })).toBe('turn');
    expect(slot()).toMatchObject({ intents: [{ id: '1-7-x', keys: [B] }] });
    beacon.activate({ id: '1-8-x', keys: [KEY] });
    beacon.deactivate('1-8-x', { lazily: true });
    beacon.deactivate('1-7-x', { lazily: true });
    expect(slot()).toMatchObject({ intents: [{ id: '1-7-x' }, { id: '1-8-x' }] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(slot()).toBe('empty');
  });

  it('a change made before the check phase writes the slot as it is then (the ended intent gone)', async () => {
    const { beacon, slot } = await beaconInFreshFolder();
    vi.useFakeTimers({ toFake: ['setImmediate'] });
    beacon.activate({ id: '1-4-x', keys: [KEY] });
    beacon.deactivate('1-4-x', { lazily: true });
    beacon.activate({ id: '1-5-x', keys: ['fs:/srv/repo/b.txt'] });
    expect(slot()).toMatchObject({ intents: [{ id: '1-5-x', keys: ['fs:/srv/repo/b.txt'] }] });
  });
});
