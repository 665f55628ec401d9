import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiJson } from '../src/ascii-json.js';
import { IntentSlot, readSlot } from '../src/intent-slot.js';
import { tempDir } from './temp-dir.js';

const OWNER = { pid: 4242, pidNamespace: 'pid:[4026531836]' };

/** FNV-1a (32 bits) of the text's character codes, its low 30 bits in decimal: the slot's checksum. */
function referenceChecksum(text: string): string {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return String(hash & 0x3fffffff);
}

/** What the slot file must hold for these intents: `<body length> <checksum>\n<body>`. */
function expectedSlot(intents: readonly { id: string; keys: readonly string[] }[]): string {
  const body = JSON.stringify({ pid: OWNER.pid, pidNamespace: OWNER.pidNamespace, intents });
  return `${body.length} ${referenceChecksum(body)}\n${body}`;
}

/** An intent as the beacon hands it to the slot: ASCII JSON. */
function intentJson(intent: { id: string; keys: readonly string[] }): string {
  return `{"id":"${intent.id}","keys":[${intent.keys.map(asciiJson).join(',')}]}`;
}

async function freshSlot() {
  const path = join(await tempDir(), 'b-x-1.slot');
  return { path, slot: IntentSlot.create(path, OWNER) };
}

describe('IntentSlot', () => {
  it('writes the intents as the length, the checksum and the JSON body, which readSlot reads back', async () => {
    const { path, slot } = await freshSlot();
    const intents = [
      { id: '1796183343554-7-x-0a0b0c0d', keys: ['fs:/srv/repo/a.txt'] },
      { id: '1796183343555-8-x-0a0b0c0d', keys: ['fs:/srv/repo/b.txt', 'fs:/srv/repo/c/'] },
    ];
    slot.write(intents.map(intentJson));
    expect(readFileSync(path, 'latin1')).toBe(expectedSlot(intents));
    expect(readSlot(path)).toEqual({ ...OWNER, intents });
  });

  it('escapes non-ASCII keys, so the checksum of the characters is that of the bytes', async () => {
    const { path, slot } = await freshSlot();
    const intents = [{ id: '1-1-x', keys: ['fs:/srv/café/ünïcode.txt'] }];
    slot.write(intents.map(intentJson));
    const escaped = readFileSync(path, 'latin1');
    expect(escaped).toContain('caf\\u00e9');
    expect(readSlot(path)).toEqual({ ...OWNER, intents });
  });

  it('a shorter rewrite in place is read as written (the older, longer bytes after it are ignored)', async () => {
    const { path, slot } = await freshSlot();
    const long = Array.from({ length: 5 }, (_, i) => ({ id: `1-${i}-x`, keys: [`fs:/srv/${i}`] }));
    slot.write(long.map(intentJson));
    const short = [{ id: '2-9-x', keys: ['fs:/b'] }];
    slot.write(short.map(intentJson));
    expect(readFileSync(path, 'latin1').startsWith(expectedSlot(short))).toBe(true);
    expect(readSlot(path)).toEqual({ ...OWNER, intents: short });
  });

  it('holds more intents than its first buffer, and none is the idle slot', async () => {
    const { path, slot } = await freshSlot();
    const many = Array.from({ length: 200 }, (_, i) => ({
      id: `1-${i}-x`,
      keys: [`fs:/srv/repo/${'deep/'.repeat(10)}file-${i}.txt`],
    }));
    slot.write(many.map(intentJson));
    expect(readFileSync(path, 'latin1')).toBe(expectedSlot(many));
    slot.write([]);
    expect(readSlot(path)).toBe('empty');
    slot.write(many.slice(0, 3).map(intentJson));
    expect(readSlot(path)).toEqual({ ...OWNER, intents: many.slice(0, 3) });
  });
});
