import { stat } from 'node:fs/promises';
import path from 'node:path';

export interface PosixAccount {
  name: string;
  uid: number;
  gid: number;
}

export interface BlockingFolder {
  path: string;
  /** Permission bits, e.g. 0o700. */
  mode: number;
}

const EXECUTE = { owner: 0o100, group: 0o010, other: 0o001 } as const;

/**
 * The first folder, from `dir` up to `/`, that `account` may not enter. Only the owner, group and other
 * bits are considered (no ACLs, no supplementary groups), the way they decide for a plain system user.
 * Folders that do not exist yet are skipped: whoever creates them decides their mode.
 */
export async function findBlockingFolder(
  dir: string,
  account: Omit<PosixAccount, 'name'>,
): Promise<BlockingFolder | undefined> {
  const blocking: BlockingFolder[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (info && !canEnter(info, account)) blocking.push({ path: current, mode: info.mode & 0o777 });
    if (path.dirname(current) === current) break;
  }
  // The folder nearest the root is the one to fix first: nothing below it is reachable until then.
  return blocking.at(-1);
}

function canEnter(info: { uid: number; gid: number; mode: number }, account: Omit<PosixAccount, 'name'>) {
  if (info.uid === account.uid) return (info.mode & EXECUTE.owner) !== 0;
  if (info.gid === account.gid) return (info.mode & EXECUTE.group) !== 0;
  return (info.mode & EXECUTE.other) !== 0;
}

/** Throws an error that names the folder `account` cannot enter and how to fix it. */
export async function assertFolderReachable(dir: string, account: PosixAccount): Promise<void> {
  const blocking = await findBlockingFolder(dir, account);
  if (!blocking) return;
  throw new Error(
    `The embedded database runs as the "${account.name}" user, which cannot enter ${blocking.path} ` +
      `(mode ${blocking.mode.toString(8)}). Fix: chmod o+x ${blocking.path}, or set DATA_DIR to a folder ` +
      `outside it (or set DATABASE_URL).`,
  );
}
