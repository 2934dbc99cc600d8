import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usableLinkConfig } from '@crewline/contracts';
import { migrationsFolder } from '@crewline/db';
import { createTestDb, type TestDb } from '../../testing/test-db';

type Config = Record<string, unknown>;

/** Links as they could be stored before their config refused credentials and destinations. */
const stored: Record<string, Config> = {
  legacy: {
    apiKey: 'sk-live-legacy',
    'X-Api-Key': 'k-top',
    baseUrl: 'http://elsewhere.example',
    headers: { Authorization: 'Bearer leak' },
    options: { auth: { token: 't-nested' }, retries: 2 },
    params: { access_token: 't-deeper', page: 1 },
    accounts: [{ name: 'a', password: 'p-in-array' }, [{ DB_PASSWORD: 'p-in-nested-array', keep: true }]],
    path: '/orders',
    limit: 5,
    filter: { url: 'https://docs.example.com', status: 'open' },
  },
  // Names JavaScript lowers differently from a database locale: the Kelvin sign is `k` in JavaScript,
  // a dotted capital I is `i` plus a combining dot (so "authorİzation" is no credential name).
  unicode: { 'API\u212AEY': 'k-kelvin', authorİzation: 'kept', Host: 'h', PORT: 5432 },
  destinationsOnly: { endpoint: 'http://elsewhere.example', query: 'open orders' },
  parameters: { path: '/orders', limit: 5, filter: { url: 'https://docs.example.com', host: 'x' } },
  values: { tags: ['secret', null, 1], nothing: null, nested: [[], {}] },
  empty: {},
};

let database: TestDb;
const links = new Map<string, string>();

async function rows() {
  const { rows } = await database.pool.query<{
    id: string;
    version: string;
    config: Config;
    is_enabled: boolean;
    created_at: Date;
  }>(`SELECT id, xmin::text AS version, config, is_enabled, created_at FROM agent_tools`);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Runs 0024 again as the migrator does: its statements in order, on one connection. Returns the rows it updated. */
async function runScrubMigration(): Promise<number> {
  const text = await readFile(path.join(migrationsFolder, '0024_scrub_link_credentials.sql'), 'utf8');
  const client = await database.pool.connect();
  let updated = -1;
  try {
    for (const statement of text.split('--> statement-breakpoint')) {
      const result = await client.query(statement);
      if (result.command === 'UPDATE') updated = result.rowCount ?? -1;
    }
  } finally {
    client.release();
  }
  return updated;
}

beforeAll(async () => {
  database = await createTestDb();
  const q = (text: string, values: unknown[] = []) => database.pool.query(text, values).then((r) => r.rows);
  const [org] = await q(`INSERT INTO organizations (name, slug) VALUES ('Scrub', 'scrub') RETURNING id`);
  const [agent] = await q(
    `INSERT INTO agents (name, role, goal, organization_id) VALUES ('Agent', 'r', 'g', $1) RETURNING id`,
    [org.id],
  );
  for (const [name, config] of Object.entries(stored)) {
    const [tool] = await q(`INSERT INTO tools (name, organization_id) VALUES ($1, $2) RETURNING id`, [
      name,
      org.id,
    ]);
    const [link] = await q(
      `INSERT INTO agent_tools (agent_id, tool_id, is_enabled, config) VALUES ($1, $2, false, $3::jsonb) RETURNING id`,
      [agent.id, tool.id, JSON.stringify(config)],
    );
    links.set(name, link.id);
  }
});
afterAll(() => database?.close());

describe('migration 0024_scrub_link_credentials', () => {
  it('removes from stored links exactly what usableLinkConfig strips, and writes only the links that change', async () => {
    const before = await rows();
    const updated = await runScrubMigration();
    const after = await rows();

    for (const [name, id] of links) {
      // The SQL copy of the rules and the TypeScript ones agree on every stored link.
      expect({ name, config: after.get(id)!.config }).toEqual({
        name,
        config: usableLinkConfig(stored[name]),
      });
    }
    expect(after.get(links.get('legacy')!)!.config).toEqual({
      options: { retries: 2 },
      params: { page: 1 },
      accounts: [{ name: 'a' }, [{ keep: true }]],
      path: '/orders',
      limit: 5,
      filter: { url: 'https://docs.example.com', status: 'open' },
    });
    expect(after.get(links.get('unicode')!)!.config).toEqual({ authorİzation: 'kept' });

    const changed = ['legacy', 'unicode', 'destinationsOnly'];
    expect(updated).toBe(changed.length);
    for (const [name, id] of links) {
      const [was, is] = [before.get(id)!, after.get(id)!];
      expect({ name, isEnabled: is.is_enabled, createdAt: is.created_at }).toEqual({
        name,
        isEnabled: was.is_enabled,
        createdAt: was.created_at,
      });
      // A link with nothing to remove is not rewritten: same row version, same values.
      if (!changed.includes(name)) expect({ name, row: is }).toEqual({ name, row: was });
      else expect({ name, version: is.version }).not.toEqual({ name, version: was.version });
    }

    // Once clean, a second run finds nothing to write.
    expect(await runScrubMigration()).toBe(0);
  });
});
