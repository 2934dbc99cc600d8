import { getTableName, is } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { PgTable } from 'drizzle-orm/pg-core';
import {
  agentStatusValues,
  executionStatusValues,
  llmProviderValues,
  processTypeValues,
  toolCategoryValues,
  triggerTypeValues,
  workflowStatusValues,
} from '@crewline/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from './client';
import { createDatabaseFromTemplate, dropDatabase } from './database-admin';
import { migrationsFolder, runMigrations } from './migrate';
import * as schema from './schema';
import { createTestDatabase } from './testing/test-database';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

describe('migrations', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it('create every table of the data model and nothing else', async () => {
    const { rows } = await database.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    const expected = [
      'agent_executions',
      'agent_templates',
      'agent_tools',
      'agents',
      'api_keys',
      'auth_sessions',
      'email_trigger_messages',
      'microsoft_oauth_states',
      'microsoft_tokens',
      'organization_invitations',
      'organization_usage',
      'organizations',
      'rate_limit_events',
      'stripe_events',
      'tool_configurations',
      'tools',
      'user_organizations',
      'users',
      'worker_heartbeats',
      'workflow_executions',
      'workflow_templates',
      'workflow_versions',
      'workflows',
    ];
    expect(rows.map((row) => row.table_name)).toEqual(expected);
    // A table added to schema.ts without a regenerated migration shows up here.
    const inSchema = Object.values(schema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableName(table))
      .sort();
    expect(inSchema).toEqual(expected);
  });

  it('create the enumerations with the values of @crewline/contracts', async () => {
    const { rows } = await database.pool.query<{ name: string; values: string[] }>(
      `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, row.values]))).toEqual({
      agent_status: [...agentStatusValues],
      workflow_status: [...workflowStatusValues],
      execution_status: [...executionStatusValues],
      llm_provider: [...llmProviderValues],
      process_type: [...processTypeValues],
      trigger_type: [...triggerTypeValues],
      tool_category: [...toolCategoryValues],
    });
  });

  it('index the newest-first execution lists so they need no sort, and the workers’ queue oldest first', async () => {
    const { rows } = await database.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes
       WHERE tablename = 'workflow_executions' AND indexdef LIKE '%created_at%'`,
    );
    expect(rows.map((row) => row.indexdef).sort()).toEqual([
      expect.stringContaining('(organization_id, created_at DESC, status, started_at, completed_at)'),
      expect.stringMatching(/unfinished_idx .*\(created_at\) WHERE .*pending.*running/),
      expect.stringContaining('(workflow_id, created_at DESC)'),
    ]);
  });

  it('index an agent’s steps by time, for per-agent analytics over a range', async () => {
    const { rows } = await database.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'agent_executions' AND indexdef LIKE '%agent_id%'`,
    );
    expect(rows.map((row) => row.indexdef)).toEqual([expect.stringContaining('(agent_id, created_at)')]);
  });

  it('leave no queue tables of a library behind: runs are queued in their own table', async () => {
    const { rows } = await database.pool.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss'`);
    expect(rows).toEqual([]);
  });

  it('can be run by several processes at once against an empty database', async () => {
    // An empty database cloned from template0, as a first start on a new server would see.
    const adminUrl = inject('databaseUrl');
    const name = `test_empty_${process.pid}_${Date.now()}`;
    const empty = await createDatabaseFromTemplate(adminUrl, 'template0', name);
    const starters = Array.from({ length: 4 }, () => createDb(empty.url, { max: 1 }));
    try {
      await Promise.all(starters.map(({ pool }) => runMigrations(pool)));
      const { rows } = await starters[0].pool.query(`SELECT hash FROM drizzle.__drizzle_migrations`);
      expect(rows).toHaveLength(readMigrationFiles({ migrationsFolder }).length);
      // A second run on a migrated database is a no-op, not an error.
      await runMigrations(starters[0].db);
    } finally {
      await Promise.all(starters.map(({ close }) => close()));
      await dropDatabase(adminUrl, name);
    }
  });
});
