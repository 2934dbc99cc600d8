import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertFolderReachable, findBlockingFolder } from './folder-access';

// An account that owns nothing in the temp tree, like the "postgres" user when the app runs as root.
const stranger = { name: 'postgres', uid: 4_000_001, gid: 4_000_001 };

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'crewline-folder-access-'));
  await chmod(base, 0o755);
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('the folder access check', () => {
  it('names the folder another user cannot enter', async () => {
    const locked = path.join(base, 'home');
    await mkdir(path.join(locked, 'app', 'data'), { recursive: true });
    await chmod(locked, 0o700);

    expect(await findBlockingFolder(path.join(locked, 'app', 'data'), stranger)).toEqual({
      path: locked,
      mode: 0o700,
    });
    await expect(assertFolderReachable(path.join(locked, 'app', 'data'), stranger)).rejects.toThrow(
      `The embedded database runs as the "postgres" user, which cannot enter ${locked} (mode 700). ` +
        `Fix: chmod o+x ${locked}, or set DATA_DIR to a folder outside it (or set DATABASE_URL).`,
    );
  });

  it('reports the outermost blocking folder first, since nothing below it can be reached', async () => {
    const outer = path.join(base, 'outer');
    const inner = path.join(outer, 'inner');
    await mkdir(path.join(inner, 'data'), { recursive: true });
    await chmod(inner, 0o750);
    await chmod(outer, 0o700);
    expect((await findBlockingFolder(path.join(inner, 'data'), stranger))?.path).toBe(outer);
  });

  it('accepts folders others may traverse, and folders the user owns', async () => {
    const traversable = path.join(base, 'shared');
    await mkdir(path.join(traversable, 'data'), { recursive: true });
    await chmod(traversable, 0o711);
    expect(await findBlockingFolder(path.join(traversable, 'data'), stranger)).toBeUndefined();

    const own = path.join(base, 'own');
    await mkdir(own);
    await chmod(own, 0o700);
    const owner = { name: 'me', uid: process.getuid!(), gid: process.getgid!() };
    expect(await findBlockingFolder(own, owner)).toBeUndefined();
    await expect(assertFolderReachable(own, owner)).resolves.toBeUndefined();
  });

  it('skips folders that do not exist yet', async () => {
    expect(await findBlockingFolder(path.join(base, 'not', 'yet', 'there'), stranger)).toBeUndefined();
  });
});
