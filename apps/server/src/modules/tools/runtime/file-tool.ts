import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, realpath, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { LlmTool } from '../../../platform/llm';

/**
 * `file` tools: text files in the organization's private folder (docs/security.md). The path comes from
 * the model, which follows whatever text it was shown, so every path is treated as hostile: it must
 * stay inside the folder both as written and after symlinks are resolved.
 */

export type FileToolOptions = {
  /** DATA_DIR/files/<organizationId>; created with mode 0700 on first use. */
  rootDir: string;
  /** Largest file read or written, in bytes. */
  maxBytes?: number;
};

const MAX_PATH_CHARS = 1024;
const MAX_LIST_ENTRIES = 1000;

const fileArgs = z.object({
  operation: z.enum(['read', 'write', 'append', 'list', 'delete']),
  path: z.string().max(MAX_PATH_CHARS).default(''),
  content: z.string().optional(),
});

type FileArgs = z.infer<typeof fileArgs>;

export function createFileTool(options: FileToolOptions): LlmTool {
  const rootDir = path.resolve(options.rootDir);
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0)
    throw new TypeError('file tool maxBytes must be a whole number > 0');
  return {
    description:
      "Reads and writes UTF-8 text files in the organization's private folder. Operations: read, write " +
      '(replaces the file), append, list (a folder) and delete. Paths are relative to that folder, e.g. ' +
      `"notes/todo.txt"; files are limited to ${maxBytes} bytes.`,
    inputSchema: {
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['read', 'write', 'append', 'list', 'delete'] },
        path: {
          type: 'string',
          description: 'Relative path inside the folder; "" or "." lists the folder itself',
        },
        content: { type: 'string', description: 'Text to write or append' },
      },
      required: ['operation', 'path'],
    },
    async execute(raw, callOptions) {
      callOptions?.signal?.throwIfAborted();
      const parsed = fileArgs.safeParse(raw);
      if (!parsed.success) {
        throw new Error(
          `Invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
        );
      }
      try {
        return await run(rootDir, maxBytes, parsed.data);
      } catch (error) {
        throw toToolError(error, parsed.data.path);
      }
    },
  };
}

/**
 * Writes (replaces) a text file at a relative path inside rootDir, with the same checks as the tool's
 * write: the path must stay inside the folder as written and after symlinks are resolved, missing
 * parent folders are created, and errors are readable messages that never show absolute server paths.
 * Used by callers other than the model, such as workflow output delivery.
 */
export async function writeFileInFolder(
  rootDir: string,
  relativePath: string,
  content: string,
  options: { maxBytes?: number } = {},
): Promise<{ path: string; bytesWritten: number; size: number }> {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  try {
    const result = await run(path.resolve(rootDir), maxBytes, {
      operation: 'write',
      path: relativePath,
      content,
    });
    return result as { path: string; bytesWritten: number; size: number };
  } catch (error) {
    throw toToolError(error, relativePath);
  }
}

/** A message meant for the model; anything else is translated so absolute server paths never leak. */
class FileToolError extends Error {}

async function run(rootDir: string, maxBytes: number, args: FileArgs) {
  const relative = checkRelativePath(args.path);
  if (relative === '' && args.operation !== 'list') {
    throw new FileToolError(`A file path is required for ${args.operation}`);
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
  const refuse = (why: string) => new FileToolError(`Path refused: ${why}`);
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
  const outside = () => new FileToolError(`Path refused: ${shown} leads outside the folder`);
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
      if (error instanceof FileToolError) throw error;
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
    if (stats.isDirectory()) throw new FileToolError(`${relative} is a folder: use list`);
    if (!stats.isFile()) throw new FileToolError(`${relative} is not a regular file`);
    if (stats.size > maxBytes) throw tooLarge(relative, maxBytes);
    // Read one byte more than allowed, so a file that grew since stat is still caught.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    const { bytesRead } = await readFully(handle, buffer);
    if (bytesRead > maxBytes) throw tooLarge(relative, maxBytes);
    let content: string;
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, bytesRead));
    } catch {
      throw new FileToolError(`${relative} is not a UTF-8 text file`);
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

async function writeText(root: string, target: string, maxBytes: number, relative: string, args: FileArgs) {
  if (args.content === undefined) throw new FileToolError(`content is required for ${args.operation}`);
  const data = Buffer.from(args.content, 'utf8');
  if (data.length > maxBytes) throw tooLarge(relative, maxBytes);
  // The parent was checked as part of the target's real path, so every folder created here is inside.
  const parent = path.dirname(target);
  if (!isInside(root, parent)) throw new FileToolError(`Path refused: ${relative} leads outside the folder`);
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    NOFOLLOW |
    (args.operation === 'append' ? constants.O_APPEND : constants.O_TRUNC);
  const handle = await open(target, flags, 0o600);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FileToolError(`${relative} is not a regular file`);
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
  if (!stats.isDirectory()) throw new FileToolError(`${relative} is not a folder`);
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
  return new FileToolError(`${relative} is larger than the limit of ${maxBytes} bytes`);
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

function toToolError(error: unknown, shown: string): Error {
  if (error instanceof FileToolError) return new Error(error.message);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = (code && errnoMessages[code]) ?? 'the file operation failed';
  return new Error(`${shown || '.'}: ${reason}`);
}
