// What the benches that run the real server (`npm start`'s settings, its own embedded PostgreSQL in
// DATA_DIR) read of it: its database, and the end of its output when something went wrong.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/**
 * The server's own database, as its DATA_DIR describes it (password file, postmaster.pid's port):
 * a connection, the postmaster's pid (its CPU is Postgres's) and its durability settings.
 */
export async function connectToServerDatabase(serverDataDir: string) {
  const password = readFileSync(path.join(serverDataDir, 'postgres-password'), 'utf8').trim();
  const pidFile = readFileSync(path.join(serverDataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const db = new pg.Client({
    host: '127.0.0.1',
    port: Number(pidFile[3]),
    user: 'postgres',
    password,
    database: 'crewline',
  });
  db.on('error', () => {});
  await db.connect();
  const setting = async (name: string) =>
    (await db.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
  return {
    db,
    postmasterPid: Number(pidFile[0]),
    settings: {
      fsync: await setting('fsync'),
      synchronousCommit: await setting('synchronous_commit'),
      fullPageWrites: await setting('full_page_writes'),
    },
  };
}

/** The last lines of the server's output, for a bench that failed. */
export function logTail(file: string, lines = 40) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '(no output)';
}
