import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inFolder, type FolderOperation } from './confined-folder';

// Layout per test: <base>/files/org-1 is the folder; org-10 (a name org-1 is a prefix of) and
// org-2 are other organizations; <base>/outside.txt stands for the rest of the server's disk.

let base: string;
let rootDir: string;
let sibling: string;
let outsideFile: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'crewline-confined-folder-'));
  rootDir = path.join(base, 'files', 'org-1');
  sibling = path.join(base, 'files', 'org-10');
  await mkdir(sibling, { recursive: true });
  await mkdir(path.join(base, 'files', 'org-2'), { recursive: true });
  await writeFile(path.join(sibling, 'secret.txt'), 'sibling secret');
  await writeFile(path.join(base, 'files', 'org-2', 'secret.txt'), 'org-2 secret');
  outsideFile = path.join(base, 'outside.txt');
  await writeFile(outsideFile, 'server file');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function call(args: FolderOperation, maxBytes = 1024 * 1024) {
  return (await inFolder(rootDir, args, maxBytes)) as Record<string, unknown>;
}

async function expectOutsideUntouched() {
  expect(await readFile(outsideFile, 'utf8')).toBe('server file');
  expect(await readFile(path.join(sibling, 'secret.txt'), 'utf8')).toBe('sibling secret');
  expect(await readFile(path.join(base, 'files', 'org-2', 'secret.txt'), 'utf8')).toBe('org-2 secret');
  expect(existsSync(path.join(base, 'x'))).toBe(false);
  expect(existsSync(path.join(base, 'files', 'x'))).toBe(false);
}

describe('a confined folder: operations', () => {
  it('creates its folder with mode 0700 on first use', async () => {
    expect(existsSync(rootDir)).toBe(false);
    await call({ operation: 'list', path: '' });
    expect((await stat(rootDir)).mode & 0o777).toBe(0o700);
  });

  it('writes a file and reads it back', async () => {
    expect(await call({ operation: 'write', path: 'notes/todo.txt', content: 'héllo\nworld' })).toEqual({
      path: 'notes/todo.txt',
      bytesWritten: 12,
      size: 12,
    });
    expect(await readFile(path.join(rootDir, 'notes', 'todo.txt'), 'utf8')).toBe('héllo\nworld');
    expect(await call({ operation: 'read', path: 'notes/todo.txt' })).toEqual({
      path: 'notes/todo.txt',
      content: 'héllo\nworld',
      bytes: 12,
    });
    expect((await stat(path.join(rootDir, 'notes'))).mode & 0o777).toBe(0o700);
  });

  it('replaces the content on write', async () => {
    await call({ operation: 'write', path: 'a.txt', content: 'a long first version' });
    await call({ operation: 'write', path: 'a.txt', content: 'short' });
    expect(await readFile(path.join(rootDir, 'a.txt'), 'utf8')).toBe('short');
  });

  it('appends, creating the file when needed', async () => {
    await call({ operation: 'append', path: 'log.txt', content: 'one\n' });
    expect(await call({ operation: 'append', path: 'log.txt', content: 'two\n' })).toMatchObject({ size: 8 });
    expect(await readFile(path.join(rootDir, 'log.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('lists a folder with names, types and sizes', async () => {
    await call({ operation: 'write', path: 'b.txt', content: '12345' });
    await call({ operation: 'write', path: 'sub/c.txt', content: 'x' });
    expect(await call({ operation: 'list', path: '.' })).toEqual({
      path: '.',
      entries: [
        { name: 'b.txt', type: 'file', size: 5 },
        { name: 'sub', type: 'folder', size: 0 },
      ],
      truncated: false,
    });
    expect(await call({ operation: 'list', path: 'sub/' })).toMatchObject({
      path: 'sub',
      entries: [{ name: 'c.txt', type: 'file', size: 1 }],
    });
  });

  it('deletes files and empty folders, but not folders with files', async () => {
    await call({ operation: 'write', path: 'sub/c.txt', content: 'x' });
    await expect(call({ operation: 'delete', path: 'sub' })).rejects.toThrow('sub: the folder is not empty');
    expect(await call({ operation: 'delete', path: 'sub/c.txt' })).toEqual({
      path: 'sub/c.txt',
      deleted: true,
    });
    expect(existsSync(path.join(rootDir, 'sub', 'c.txt'))).toBe(false);
    await call({ operation: 'delete', path: 'sub' });
    expect(existsSync(path.join(rootDir, 'sub'))).toBe(false);
    await expect(call({ operation: 'delete', path: '' })).rejects.toThrow(/A file path is required/);
    expect(existsSync(rootDir)).toBe(true);
  });

  it('reports a missing file without the server path', async () => {
    const error = await call({ operation: 'read', path: 'nope.txt' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toBe('nope.txt: not found');
    expect(error?.message).not.toContain(base);
  });
});

describe('a confined folder: size limits', () => {
  it('refuses a write larger than the limit and leaves no file', async () => {
    await expect(call({ operation: 'write', path: 'big.txt', content: 'x'.repeat(11) }, 10)).rejects.toThrow(
      'big.txt is larger than the limit of 10 bytes',
    );
    expect(existsSync(path.join(rootDir, 'big.txt'))).toBe(false);
  });

  it('counts bytes, not characters', async () => {
    await expect(call({ operation: 'write', path: 'e.txt', content: 'é'.repeat(6) }, 10)).rejects.toThrow(
      /larger/,
    );
  });

  it('refuses an append that would grow the file past the limit, keeping the file as it was', async () => {
    await call({ operation: 'write', path: 'log.txt', content: '12345678' }, 10);
    await expect(call({ operation: 'append', path: 'log.txt', content: 'abc' }, 10)).rejects.toThrow(
      /larger/,
    );
    expect(await readFile(path.join(rootDir, 'log.txt'), 'utf8')).toBe('12345678');
  });

  it('refuses to read a file larger than the limit', async () => {
    await mkdir(rootDir, { recursive: true });
    await writeFile(path.join(rootDir, 'big.txt'), 'x'.repeat(20));
    await expect(call({ operation: 'read', path: 'big.txt' }, 10)).rejects.toThrow(/larger than the limit/);
  });

  it('refuses to read a binary file as text', async () => {
    await mkdir(rootDir, { recursive: true });
    await writeFile(path.join(rootDir, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    await expect(call({ operation: 'read', path: 'bin.dat' })).rejects.toThrow(
      'bin.dat is not a UTF-8 text file',
    );
  });
});

describe('a confined folder: no way out', () => {
  const escapes = [
    '../x',
    '../../x',
    'a/../../x',
    './../x',
    '/etc/passwd',
    '//etc/passwd',
    '../org-10/secret.txt',
    '../org-2/secret.txt',
    '..\\x',
    'C:/x',
    'c:x',
    'a\u0000b',
    '..',
  ];

  it.each(escapes)('refuses to write %j', async (p) => {
    await expect(call({ operation: 'write', path: p, content: 'pwned' })).rejects.toThrow(/^Path refused/);
    await expectOutsideUntouched();
  });

  it.each(escapes)('refuses to read %j', async (p) => {
    await expect(call({ operation: 'read', path: p })).rejects.toThrow(/^Path refused/);
  });

  it.each(['../org-2/secret.txt', '../org-10/secret.txt', '../../outside.txt'])(
    'refuses to delete %j',
    async (p) => {
      await expect(call({ operation: 'delete', path: p })).rejects.toThrow(/^Path refused/);
      await expectOutsideUntouched();
    },
  );

  it('refuses to list a parent folder', async () => {
    await expect(call({ operation: 'list', path: '..' })).rejects.toThrow(/^Path refused/);
  });

  it('allows .. that stays inside', async () => {
    await call({ operation: 'write', path: 'a/../inside.txt', content: 'ok' });
    expect(await readFile(path.join(rootDir, 'inside.txt'), 'utf8')).toBe('ok');
  });

  it('does not follow a symlink to a file outside, for reading or writing', async () => {
    await mkdir(rootDir, { recursive: true });
    await symlink(outsideFile, path.join(rootDir, 'link.txt'));
    await expect(call({ operation: 'read', path: 'link.txt' })).rejects.toThrow(
      'Path refused: link.txt leads outside the folder',
    );
    await expect(call({ operation: 'write', path: 'link.txt', content: 'pwned' })).rejects.toThrow(
      /^Path refused/,
    );
    await expect(call({ operation: 'append', path: 'link.txt', content: 'pwned' })).rejects.toThrow(
      /^Path refused/,
    );
    await expectOutsideUntouched();
  });

  it('does not follow a symlinked folder that points outside', async () => {
    await mkdir(rootDir, { recursive: true });
    await symlink(path.join(base, 'files', 'org-2'), path.join(rootDir, 'shared'));
    await expect(call({ operation: 'read', path: 'shared/secret.txt' })).rejects.toThrow(/^Path refused/);
    await expect(call({ operation: 'write', path: 'shared/secret.txt', content: 'pwned' })).rejects.toThrow(
      /^Path refused/,
    );
    await expect(call({ operation: 'write', path: 'shared/new/deep.txt', content: 'pwned' })).rejects.toThrow(
      /^Path refused/,
    );
    await expect(call({ operation: 'list', path: 'shared' })).rejects.toThrow(/^Path refused/);
    await expect(call({ operation: 'delete', path: 'shared/secret.txt' })).rejects.toThrow(/^Path refused/);
    await expectOutsideUntouched();
    expect(existsSync(path.join(base, 'files', 'org-2', 'new'))).toBe(false);
  });

  it('does not follow a symlink to the sibling whose name starts like ours', async () => {
    await mkdir(rootDir, { recursive: true });
    await symlink(sibling, path.join(rootDir, 'neighbour'));
    await expect(call({ operation: 'read', path: 'neighbour/secret.txt' })).rejects.toThrow(/^Path refused/);
    await expectOutsideUntouched();
  });

  it('does not follow a dangling symlink, which could create a file outside', async () => {
    await mkdir(rootDir, { recursive: true });
    const target = path.join(base, 'created-by-link.txt');
    await symlink(target, path.join(rootDir, 'dangling.txt'));
    await expect(call({ operation: 'write', path: 'dangling.txt', content: 'pwned' })).rejects.toThrow(
      /^Path refused/,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('refuses when the folder itself is reached through a symlink that leads elsewhere', async () => {
    await mkdir(rootDir, { recursive: true });
    await mkdir(path.join(rootDir, 'sub'));
    await symlink('../../org-2', path.join(rootDir, 'sub', 'up'));
    await expect(call({ operation: 'read', path: 'sub/up/secret.txt' })).rejects.toThrow(/^Path refused/);
    await expectOutsideUntouched();
  });

  it('removes a symlink itself on delete, never the file it points to', async () => {
    await mkdir(rootDir, { recursive: true });
    await symlink(outsideFile, path.join(rootDir, 'link.txt'));
    await call({ operation: 'delete', path: 'link.txt' });
    expect(existsSync(path.join(rootDir, 'link.txt'))).toBe(false);
    await expectOutsideUntouched();
  });

  it('lists a symlink as a symlink without following it', async () => {
    await mkdir(rootDir, { recursive: true });
    await symlink(outsideFile, path.join(rootDir, 'link.txt'));
    expect(await call({ operation: 'list', path: '' })).toMatchObject({
      entries: [{ name: 'link.txt', type: 'symlink', size: 0 }],
    });
  });

  it('works when the root itself sits behind a symlink (e.g. a mounted data folder)', async () => {
    const realData = path.join(base, 'real-data');
    await mkdir(path.join(realData, 'org-9'), { recursive: true });
    const linkedRoot = path.join(base, 'data-link');
    await symlink(realData, linkedRoot);
    await inFolder(
      path.join(linkedRoot, 'org-9'),
      { operation: 'write', path: 'a.txt', content: 'ok' },
      1024,
    );
    expect(await readFile(path.join(realData, 'org-9', 'a.txt'), 'utf8')).toBe('ok');
  });
});
