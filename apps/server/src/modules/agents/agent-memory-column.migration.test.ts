import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrationsFolder } from '@crewline/db';
import { createTestDb, type TestDb } from '../../testing/test-db';

// 0026 gives agents a `memory` column and moves the memory settings out of `config.memory` into it,
// in the API's shape `{ enabled, connection, model }`.

type Row = { name: string; config: Record<string, unknown>; memory: Record<string, unknown> | null };

let database: TestDb;

const settings = { enabled: true, embeddingProvider: 'local', embeddingModel: 'nomic-embed-text' };
const agents: Record<string, Record<string, unknown>> = {
  withSettings: { memory: settings, tone: 'warm' },
  onlyModel: { memory: { enabled: true, embeddingModel: 'bge-m3' } },
  memoryOff: { memory: { enabled: false } },
  memoryTrue: { memory: true, other: [1, 2] },
  memoryText: { memory: 'remember this' },
  noMemory: { tone: 'dry' },
  empty: {},
};

/** Runs 0026 as the migrator does, on a database as it was before it (no memory column). */
async function runMigration() {
  const text = await readFile(path.join(migrationsFolder, '0026_agent_memory_column.sql'), 'utf8');
  const client = await database.pool.connect();
  try {
    for (const statement of text.split('--> statement-breakpoint')) await client.query(statement);
  } finally {
    client.release();
  }
}

beforeAll(async () => {
  database = await createTestDb();
  const q = (text: string, values: unknown[] = []) => database.pool.query(text, values).then((r) => r.rows);
  await q(`ALTER TABLE agents DROP COLUMN memory`);
  const [org] = await q(`INSERT INTO organizations (name, slug) VALUES ('Move', 'move') RETURNING id`);
  for (const [name, config] of Object.entries(agents))
    await q(
      `INSERT INTO agents (name, role, goal, organization_id, config) VALUES ($1, 'r', 'g', $2, $3::jsonb)`,
      [name, org.id, JSON.stringify(config)],
    );
  await runMigration();
});
afterAll(async () => {
  await database?.close();
});

it('moves memory settings out of config into the memory column, and leaves everything else', async () => {
  const { rows } = await database.pool.query<Row>(`SELECT name, config, memory FROM agents`);
  const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
  expect(byName.withSettings.config).toEqual({ tone: 'warm' });
  expect(byName.withSettings.memory).toEqual({
    enabled: true,
    connection: 'local',
    model: 'nomic-embed-text',
  });
  // A setting never chosen stays unset (the default when read).
  expect(byName.onlyModel.memory).toEqual({ enabled: true, model: 'bge-m3' });
  expect(byName.memoryOff.config).toEqual({});
  expect(byName.memoryOff.memory).toEqual({ enabled: false });
  // Not memory settings: they stay in config, and the agent has none.
  expect(byName.memoryTrue).toMatchObject({ config: { memory: true, other: [1, 2] }, memory: null });
  expect(byName.memoryText).toMatchObject({ config: { memory: 'remember this' }, memory: null });
  expect(byName.noMemory).toMatchObject({ config: { tone: 'dry' }, memory: null });
  expect(byName.empty).toMatchObject({ config: {}, memory: null });
});
