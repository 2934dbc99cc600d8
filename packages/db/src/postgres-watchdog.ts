import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { PosixAccount } from './folder-access';

// Waits on a pipe from this process: reading it ends (EOF) once this process is gone, however it
// ended, SIGKILL included. Then, if the pid file still names that postmaster (so the PID was not
// reused), it asks for a fast shutdown. Only shell built-ins: one small process for the server's life.
const SCRIPT = 'read -r _; read -r pid < "$1/postmaster.pid" && [ "$pid" = "$2" ] && kill -INT "$2"';

export interface Watchdog {
  /** Ends the watchdog without touching Postgres (stopped by us, or exited by itself). */
  dismiss(): void;
}

/**
 * Stops the postmaster `pid` serving `clusterDir` when this process dies (docs/decisions/0022):
 * a Postgres spawned by Node otherwise outlives it and keeps the folder locked.
 */
export function startWatchdog(clusterDir: string, pid: number, account?: PosixAccount): Watchdog {
  if (process.platform === 'win32') return { dismiss() {} };
  const child = spawn('/bin/sh', ['-c', SCRIPT, 'crewline-postgres-watchdog', clusterDir, String(pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    // Its own session: a Ctrl-C for the terminal's process group does not end it before us.
    detached: true,
    // As root, it runs as the user Postgres runs as, which may signal that process and no other.
    ...(account ? { uid: account.uid, gid: account.gid } : {}),
  });
  child.on('error', () => {}); // no shell: the next start stops a leftover Postgres instead
  child.stdin!.on('error', () => {});
  // Neither the process nor the pipe keeps this process's event loop alive.
  child.unref();
  (child.stdin as Socket).unref();
  return { dismiss: () => void child.kill('SIGKILL') };
}
