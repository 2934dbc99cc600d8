import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, realpath, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Text files confined to one folder, an organization's DATA_DIR/files/<organizationId>
 * (docs/security.md): the file tool's operations and a run's output written to a file. The path comes
 * from a model or from a workflow a user wrote, so every path is treated as hostile: it must stay
 * inside the folder both as written and after symlinks are resolved. Errors are readable messages
 * that never show absolute server paths.
 */

export type FolderOperation = {
  operation: 'read' | 'write' | 'append' | 'list' | 'delete';
  /** Relative to the folder; '' is the folder itself. */
  path: string;
  /** The text to write or append. */
  content?: string;
};

const MAX_LIST_ENTRIES = 1000;

/** Runs one operation inside rootDir (created with mode 0700 on first use); files are limited to maxBytes. */
export async function inFolder(rootDir: string, args: FolderOperation, maxBytes: number): Promise<unknown> {
  try {
    return await run(path.resolve(rootDir), maxBytes, args);
  } catch (error) {
    throw readableError(error, args.path);
  }
}

/**
 * Writes (replaces) a text file at a relative path inside rootDir, with the same checks as every
 * operation; missing parent folders are created. Used by callers other than the model, such as
 * workflow output delivery.
 */
export async function writeFileInFolder(
  rootDir: string,
  relativePath: string,
  content: string,
  options: { maxBytes?: number } = {},
): Promise<{ path: string; bytesWritten: number; size: number }> {
  const written = await inFolder(
    rootDir,
    { operation: 'write', path: relativePath, content },
    options.maxBytes ?? 1024 * 1024,
  );
  return written as { path: string; bytesWritten: number; size: number };
}

/** A message meant for the caller (a model, a run's user); anything else is translated so absolute server paths never leak. */
class FolderError extends Error {}

async function run(rootDir: string, maxBytes: number, args: FolderOperation) {
  const relative = checkRelativePath(args.path);
  if (relative === '' && args.operation !== 'list') {
    throw new FolderError(`A file path is required for ${args.operation}`);
  }
  await mkdir(rootDir, { recursive: true, mode: 0o700 });
  const root = await realpath(rootDir);
  if (args.operation === 'delete') {
    // Only the parent is resolved: a symlink is removed itself, never the file it points to.
    const parent = await resolveInside(root, path.posix.dirname(relative).replace(/^\.$/, ''), args.path);
    return remove(path.join(parent, path.posix.basename(relative)), relative);
  }
  const target = await resolveInside(root, relative, args.path);
  switch (args.operation) {
    case 'read':
      return readText(target, maxBytes, relative);
    case 'write':
    case 'append':
      return writeText(root, target, maxBytes, relative, args);
    case 'list':
      return list(target, relative);
  }
}

/**
 * The path as written: relative, no NUL or control characters, no Windows drive or backslash forms
 * (harmless on Linux but never meant for us), and no `..` that climbs above the folder.
 */
function checkRelativePath(input: string): string {
  const refuse = (why: string) => new FolderError(`Path refused: ${why}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(input)) throw refuse('it contains control characters');
  if (input.includes('\\')) throw refuse('use forward slashes');
  if (/^[a-zA-Z]:/.test(input)) throw refuse('drive letters are not allowed');
  if (path.posix.isAbsolute(input)) throw refuse('it must be relative to the folder');
  const normal = path.posix.normalize(input === '' ? '.' : input);
  if (normal === '..' || normal.startsWith('../')) throw refuse('it leads outside the folder');
  return normal === '.' || normal === './' ? '' : normal.replace(/\/+$/, '');
}

function isInside(root: string, candidate: string) {
  return candidate === root || candidate.startsWith(root + path.sep);
}

/**
 * The real location of the target: the real path of the target, or of its nearest existing parent
 * plus the parts still to be created. A symlink inside the folder that points out of it (to /etc,
 * to another organization's folder) therefore lands outside and is refused before any read or write.
 */
async function resolveInside(root: string, relative: string, shown: string): Promise<string> {
  const outside = () => new FolderError(`Path refused: ${shown} leads outside the folder`);
  const lexical = path.resolve(root, relative);
  if (!isInside(root, lexical)) throw outside();
  let existing = lexical;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await realpath(existing);
      const resolved = path.join(real, ...missing);
      if (!isInside(root, real) || !isInside(root, resolved)) throw outside();
      return resolved;
    } catch (error) {
      if (error instanceof FolderError) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // A dangling symlink is also ENOENT to realpath: where it points cannot be checked, so refuse.
      if (await isSymlink(existing)) throw outside();
      if (existing === root) throw error;
      missing.unshift(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
}

async function isSymlink(file: string) {
  try {
    return (await lstat(file)).isSymbolicLink();
  } catch {
    return false;
  }
}

// O_NOFOLLOW: if a symlink appeared at the checked real path after the check, open fails instead of following it.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

async function readText(target: string, maxBytes: number, relative: string) {
  const handle = await open(target, constants.O_RDONLY | NOFOLLOW);
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new FolderError(`${relative} is a folder: use list`);
    if (!stats.isFile()) throw new FolderError(`${relative} is not a regular file`);
    if (stats.size > maxBytes) throw tooLarge(relative, maxBytes);
    // Read one byte more than allowed, so a file that grew since stat is still caught.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    const { bytesRead } = await readFully(handle, buffer);
    if (bytesRead > maxBytes) throw tooLarge(relative, maxBytes);
    let content: string;
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, bytesRead));
    } catch {
      throw new FolderError(`${relative} is not a UTF-8 text file`);
    }
    return { path: relative, content, bytes: bytesRead };
  } finally {
    await handle.close();
  }
}

async function readFully(handle: FileHandle, buffer: Buffer) {
  let bytesRead = 0;
  while (bytesRead < buffer.length) {
    const { bytesRead: n } = await handle.read(buffer, bytesRead, buffer.length - bytesRead, bytesRead);
    if (n === 0) break;
    bytesRead += n;
  }
  return { bytesRead };
}

async function writeText(
  root: string,
  target: string,
  maxBytes: number,
  relative: string,
  args: FolderOperation,
) {
  if (args.content === undefined) throw new FolderError(`content is required for ${args.operation}`);
  const data = Buffer.from(args.content, 'utf8');
  if (data.length > maxBytes) throw tooLarge(relative, maxBytes);
  // The parent was checked as part of the target's real path, so every folder created here is inside.
  const parent = path.dirname(target);
  if (!isInside(root, parent)) throw new FolderError(`Path refused: ${relative} leads outside the folder`);
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    NOFOLLOW |
    (args.operation === 'append' ? constants.O_APPEND : constants.O_TRUNC);
  const handle = await open(target, flags, 0o600);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FolderError(`${relative} is not a regular file`);
    if (args.operation === 'append' && stats.size + data.length > maxBytes)
      throw tooLarge(relative, maxBytes);
    await handle.writeFile(data);
    const size = args.operation === 'append' ? stats.size + data.length : data.length;
    return { path: relative, bytesWritten: data.length, size };
  } finally {
    await handle.close();
  }
}

async function list(target: string, relative: string) {
  const stats = await lstat(target);
  if (!stats.isDirectory()) throw new FolderError(`${relative} is not a folder`);
  const dirents = await readdir(target, { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries = [];
  for (const dirent of dirents.slice(0, MAX_LIST_ENTRIES)) {
    // lstat: a symlink is reported as one and its target's size is never looked up.
    const entryStats = await lstat(path.join(target, dirent.name)).catch(() => undefined);
    const type = dirent.isFile()
      ? 'file'
      : dirent.isDirectory()
        ? 'folder'
        : dirent.isSymbolicLink()
          ? 'symlink'
          : 'other';
    entries.push({ name: dirent.name, type, size: type === 'file' ? (entryStats?.size ?? 0) : 0 });
  }
  return { path: relative || '.', entries, truncated: dirents.length > MAX_LIST_ENTRIES };
}

async function remove(target: string, relative: string) {
  const stats = await lstat(target);
  if (stats.isDirectory()) await rmdir(target);
  else await unlink(target);
  return { path: relative, deleted: true };
}

function tooLarge(relative: string, maxBytes: number) {
  return new FolderError(`${relative} is larger than the limit of ${maxBytes} bytes`);
}

const errnoMessages: Record<string, string> = {
  ENOENT: 'not found',
  EISDIR: 'is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOTEMPTY: 'the folder is not empty',
  EEXIST: 'already exists',
  ELOOP: 'is a symbolic link, which is not followed',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left',
  ENAMETOOLONG: 'the name is too long',
};

function readableError(error: unknown, shown: string): Error {
  if (error instanceof FolderError) return new Error(error.message);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = (code && errnoMessages[code]) ?? 'the file operation failed';
  return new Error(`${shown || '.'}: ${reason}`);
}
