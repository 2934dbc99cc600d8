import { readFile, readlink, realpath, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// How long a leftover Postgres gets for each way of stopping. A fast shutdown writes a checkpoint
// first; an immediate one kills its server processes after 5 seconds at most.
const FAST_SHUTDOWN_MS = 20_000;
const IMMEDIATE_SHUTDOWN_MS = 10_000;
const POLL_MS = 100;

/**
 * Makes way for a start on `clusterDir` when a `postmaster.pid` is there (docs/decisions/0022):
 * - its process is a Postgres serving this folder whose parent is no longer a Node process (the server
 *   that started it died): stopped, as a fast shutdown, then an immediate one;
 * - its process is a zombie or another program (its PID reused): the file is stale but Postgres would
 *   refuse it (it only ignores the PIDs of dead processes), so it is removed;
 * - its process is gone, or cannot be looked at (not Linux, another user's): left to Postgres, which
 *   ignores a dead process's file and reports a live one's in its own words;
 * - a Postgres whose parent is a Node process belongs to a running server: left alone, so Postgres
 *   refuses the second start with its own explanation.
 */
export async function clearLeftoverPostgres(clusterDir: string): Promise<void> {
  for (let step = 0; step < 2; step++) {
    const pidFile = path.join(clusterDir, 'postmaster.pid');
    const pid = await readPostmasterPid(pidFile);
    if (pid === undefined || process.platform !== 'linux') return;
    const found = await inspect(pid, clusterDir);
    if (found === 'gone' || found === 'unknown' || found === 'owned') return;
    if (found === 'stale') {
      // Checked again just before, so a file a Postgres has just written in its place is kept.
      if ((await readPostmasterPid(pidFile)) === pid) await unlink(pidFile).catch(() => undefined);
      return;
    }
    await stopOrphan(pid, clusterDir);
    // Its shutdown removes the file; whatever is left (say, a file naming a zombie) is the next step's.
  }
}

type Found = 'gone' | 'unknown' | 'owned' | 'orphan' | 'stale';

/** The first line of the pid file, or undefined without a readable one. */
async function readPostmasterPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const pid = Number(text?.split('\n', 1)[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** What process `pid` is, from /proc. */
async function inspect(pid: number, clusterDir: string): Promise<Found> {
  const stat = await procStat(pid);
  if (!stat) return 'gone';
  if (stat.state === 'Z' || stat.state === 'X') return 'stale';
  let serving: boolean;
  try {
    const [argv0] = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    // The postmaster works in its data folder (it changes into it at start); the path it was
    // given may be written differently, a symlink or relative.
    serving =
      path.basename(argv0) === 'postgres' &&
      (await realpath(`/proc/${pid}/cwd`)) === (await realpath(clusterDir));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT: it exited meanwhile; EACCES: another user's, which Postgres judges better.
    return code === 'ENOENT' ? 'gone' : 'unknown';
  }
  if (!serving) return 'stale';
  // A server's Postgres is its child. When the server dies it goes to init or a subreaper, never a
  // Node process: a Node parent is a live server (ours or a second one started on the same folder).
  // A parent we may not look at is another user's (init, say), so not a server of ours either.
  const parentExe = await readlink(`/proc/${stat.ppid}/exe`).catch(() => '');
  return path.basename(parentExe) === path.basename(process.execPath) ? 'owned' : 'orphan';
}

/** State and parent of a process, or undefined when there is none. */
async function procStat(pid: number): Promise<{ state: string; ppid: number } | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
  const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}

/** A fast shutdown, then an immediate one (what Postgres advises instead of SIGKILL). */
async function stopOrphan(pid: number, clusterDir: string): Promise<void> {
  for (const [signal, deadline] of [
    ['SIGINT', FAST_SHUTDOWN_MS],
    ['SIGQUIT', IMMEDIATE_SHUTDOWN_MS],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // already gone
    }
    for (const end = Date.now() + deadline; Date.now() < end; await sleep(POLL_MS)) {
      if ((await inspect(pid, clusterDir)) !== 'orphan') return;
    }
  }
  throw new Error(
    `A PostgreSQL left running by an earlier start (PID ${pid}) still serves ${clusterDir} and did ` +
      `not stop. Stop that process, then start again.`,
  );
}
