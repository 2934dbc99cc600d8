import pg from 'pg';
import { createDatabaseFromTemplate, createDb, databaseUrl } from '@crewline/db';
import { inject } from 'vitest';
// Brings in the ProvidedContext keys that inject() reads.
import type {} from './global-setup';

/**
 * A fresh, migrated database of its own for one test file: call it in beforeAll and `close()` in
 * afterAll (which also drops the database).
 */
export async function createTestDb() {
  const database = await createDatabaseFromTemplate(inject('databaseUrl'), inject('templateDatabase'));
  const { db, pool, close: closePool } = createDb(database.url);
  const roles: string[] = [];
  return {
    url: database.url,
    db,
    pool,
    /** Login roles made with createLoginRole; dropped with the database (roles are cluster-wide). */
    roles,
    async close() {
      await closePool();
      await database.drop();
      if (roles.length === 0) return;
      const admin = createDb(inject('databaseUrl'), { max: 1 });
      for (const role of roles) await admin.pool.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.close();
    },
  };
}

export type TestDb = Awaited<ReturnType<typeof createTestDb>>;

/**
 * A login role that is not a superuser, with full rights on the test database's public schema (so
 * a refused write proves the read-only transaction, not missing grants). Returns its connection URL.
 */
export async function createLoginRole(database: TestDb, schemas: string[] = ['public']): Promise<string> {
  const role = `tool_role_${Math.random().toString(36).slice(2, 10)}`;
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const dbName = new URL(database.url).pathname.slice(1);
  await database.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  database.roles.push(role);
  await database.pool.query(`GRANT ALL ON DATABASE ${quoted(dbName)} TO ${role}`);
  for (const schema of schemas) {
    await database.pool.query(`GRANT ALL ON SCHEMA ${quoted(schema)} TO ${role}`);
    await database.pool.query(`GRANT ALL ON ALL TABLES IN SCHEMA ${quoted(schema)} TO ${role}`);
    await database.pool.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA ${quoted(schema)} TO ${role}`);
  }
  const url = new URL(database.url);
  url.username = role;
  url.password = password;
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  return url.toString();
}

/** One statement on the test cluster's admin database (CREATE and DROP DATABASE). */
async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * An empty database (no schema: the server process under test migrates it itself), for the tests
 * that start the server as a process; `drop()` in afterAll.
 */
export async function createEmptyDatabase(prefix: string) {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return {
    url: databaseUrl(inject('databaseUrl'), name),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
