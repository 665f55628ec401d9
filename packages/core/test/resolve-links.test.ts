import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLinks, SYMBOLIC_LINK_LIMIT } from '@toolwaves/core/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolwaves-core-')));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src', 'a.ts'), 'a');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('resolveLinks', () => {
  it('normalizes `.`, `..` and `//` lexically, then follows a link to a folder', async () => {
    await symlink(join(root, 'src'), join(root, 'link'));
    expect(resolveLinks(`${root}/./link/../src//a.ts`)).toBe(join(root, 'src', 'a.ts'));
    expect(resolveLinks(`${root}/link/a.ts`)).toBe(join(root, 'src', 'a.ts'));
  });

  it('keeps the part that does not exist yet as written, below the real existing prefix', async () => {
    await symlink(join(root, 'src'), join(root, 'link'));
    expect(resolveLinks(join(root, 'link', 'new', 'deep.ts'))).toBe(
      join(root, 'src', 'new', 'deep.ts'),
    );
  });

  it('follows a dangling link, relative to its folder, to where it points', async () => {
    await symlink('src/missing.ts', join(root, 'dangling.ts'));
    expect(resolveLinks(join(root, 'dangling.ts'))).toBe(join(root, 'src', 'missing.ts'));
  });

  it(`gives up (undefined) on a loop of links, after ${SYMBOLIC_LINK_LIMIT} links`, async () => {
    await symlink(join(root, 'b'), join(root, 'a'));
    await symlink(join(root, 'a'), join(root, 'b'));
    expect(resolveLinks(join(root, 'a', 'x.ts'))).toBeUndefined();
  });

  it('follows a chain of exactly the limit of links', async () => {
    for (let k = 0; k < SYMBOLIC_LINK_LIMIT; k += 1) {
      await symlink(`l${k + 1}`, join(root, `l${k}`));
    }
    await symlink('src/missing.ts', join(root, `l${SYMBOLIC_LINK_LIMIT}`));
    // l0 → l1 → … → l40 → src/missing.ts: 41 links, one too many.
    expect(resolveLinks(join(root, 'l0'))).toBeUndefined();
    // l1 → … → l40 → src/missing.ts: 40 links.
    expect(resolveLinks(join(root, 'l1'))).toBe(join(root, 'src', 'missing.ts'));
  });
});
