import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb } from './client';
import { runMigrations } from './migrate';

/** `url` with its database replaced by `database`. */
export function databaseUrl(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(database)}`;
  return next.toString();
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  const next = new URL(url);
  if (next.password) next.password = '***';
  return next.toString();
}

async function withAdminClient<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** (Re)creates `name` on the server of `adminUrl` and migrates it, ready to be cloned. */
export async function createMigratedDatabase(adminUrl: string, name: string): Promise<string> {
  await dropDatabase(adminUrl, name);
  await withAdminClient(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`),
  );
  const url = databaseUrl(adminUrl, name);
  const { pool, close } = createDb(url, { max: 1 });
  try {
    await runMigrations(pool);
  } finally {
    // Cloning requires that nobody is connected to the template.
    await close();
  }
  return url;
}

/**
 * A new database copied from `template` (a file-level copy: far faster than migrating again).
 * The template must have no open connections.
 */
export async function createDatabaseFromTemplate(
  adminUrl: string,
  template: string,
  name = `test_${randomBytes(6).toString('hex')}`,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  await withAdminClient(adminUrl, (client) =>
    client.query(
      `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)}`,
    ),
  );
  return { name, url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

/** Drops `name` if it exists, disconnecting whoever is still on it (Postgres 13+). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdminClient(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
  );
}
