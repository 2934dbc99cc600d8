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
      'account_tokens',
      'agent_executions',
      'agent_memories',
      'agent_templates',
      'agent_tools',
      'agents',
      'api_keys',
      'approval_decisions',
      'approval_links',
      'approvals',
      'audit_events',
      'auth_sessions',
      'chat_messages',
      'chat_threads',
      'dataset_items',
      'datasets',
      'email_trigger_messages',
      'eval_run_items',
      'eval_runs',
      'evaluations',
      'knowledge_bases',
      'knowledge_chunks',
      'knowledge_documents',
      'mcp_oauth_flows',
      'microsoft_oauth_states',
      'microsoft_tokens',
      'model_prices',
      'model_usage',
      'oauth_clients',
      'oauth_grants',
      'oauth_tokens',
      'organization_budgets',
      'organization_invitations',
      'organization_usage',
      'organizations',
      'rate_limit_events',
      'sales_inquiries',
      'spend_counters',
      'stripe_events',
      'subscriptions',
      'tool_configurations',
      'tools',
      'user_organizations',
      'users',
      'webhook_signatures_seen',
      'worker_heartbeats',
      'workflow_executions',
      'workflow_publishing',
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

  it('index the newest-first execution lists so they need no sort, and the workers’ queue by organization, oldest first', async () => {
    const { rows } = await database.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes
       WHERE tablename = 'workflow_executions' AND indexdef LIKE '%created_at%'`,
    );
    expect(rows.map((row) => row.indexdef).sort()).toEqual([
      expect.stringContaining(
        '(organization_id, created_at DESC, status, started_at, completed_at, workflow_id, duration_us, total_tokens, waited_us)',
      ),
      expect.stringMatching(/queue_idx .*\(organization_id, status, created_at\) WHERE .*pending.*running/),
      expect.stringContaining('(workflow_id, created_at DESC)'),
    ]);
  });

  it('index an agent’s steps by time, for per-agent analytics over a range', async () => {
    const { rows } = await database.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'agent_executions' AND indexdef LIKE '%agent_id%'`,
    );
    expect(rows.map((row) => row.indexdef)).toEqual([
      expect.stringContaining('(agent_id, created_at, reused, status, execution_ms, total_tokens)'),
    ]);
  });

  it('index knowledge bases by organization, documents by knowledge base and organization (storage quota), chunks for loading, and the ingestion queue', async () => {
    const { rows } = await database.pool.query<{ tablename: string; indexdef: string }>(
      `SELECT tablename, indexdef FROM pg_indexes
       WHERE tablename LIKE 'knowledge_%' AND indexname NOT LIKE '%_pkey' ORDER BY indexname`,
    );
    expect(rows.map((row) => row.indexdef)).toEqual([
      expect.stringContaining('knowledge_bases USING btree (organization_id, created_at DESC)'),
      expect.stringContaining('knowledge_chunks USING btree (document_id, chunk_index)'),
      expect.stringContaining('knowledge_chunks USING btree (knowledge_base_id)'),
      expect.stringContaining('knowledge_documents USING btree (knowledge_base_id, created_at DESC)'),
      expect.stringContaining('knowledge_documents USING btree (organization_id)'),
      expect.stringMatching(/knowledge_documents_unfinished_idx .*\(created_at\) WHERE .*queued.*processing/),
    ]);
  });

  it('index an agent’s memories newest first, and forget them with the agent', async () => {
    const { rows } = await database.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'agent_memories' AND indexname NOT LIKE '%_pkey'`,
    );
    expect(rows.map((row) => row.indexdef)).toEqual([
      expect.stringContaining('agent_memories USING btree (agent_id, created_at DESC)'),
    ]);
    const {
      rows: [fk],
    } = await database.pool.query<{ rule: string }>(
      `SELECT delete_rule AS rule FROM information_schema.referential_constraints
       WHERE constraint_name = 'agent_memories_agent_id_agents_id_fk'`,
    );
    expect(fk.rule).toBe('CASCADE');
  });

  it('remove a knowledge base’s or a document’s chunks with it, and everything with the organization', async () => {
    const q = <T>(text: string, values: unknown[] = []) =>
      database.pool.query<T & Record<string, unknown>>(text, values).then((r) => r.rows);
    const count = async (table: string, org: string) =>
      (await q<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [org]))[0]
        .n;
    const [org] = await q<{ id: string }>(
      `INSERT INTO organizations (name, slug) VALUES ('Knowledge', 'knowledge-' || gen_random_uuid()) RETURNING id`,
    );
    const seed = async () => {
      const [kb] = await q<{ id: string }>(
        `INSERT INTO knowledge_bases (organization_id, name, embedding_provider, embedding_model)
         VALUES ($1, 'KB', 'openai', 'm') RETURNING id`,
        [org.id],
      );
      const docs = await q<{ id: string }>(
        `INSERT INTO knowledge_documents (knowledge_base_id, organization_id, name, media_type, size_bytes, content)
         VALUES ($1, $2, 'a', 'text/plain', 1, 'a'), ($1, $2, 'b', 'text/plain', 1, 'b') RETURNING id`,
        [kb.id, org.id],
      );
      for (const doc of docs) {
        await q(
          `INSERT INTO knowledge_chunks (document_id, knowledge_base_id, organization_id, chunk_index, text, embedding)
           VALUES ($1, $2, $3, 0, 't', '\\x0000803f'), ($1, $2, $3, 1, 't', '\\x0000803f')`,
          [doc.id, kb.id, org.id],
        );
      }
      return { kb: kb.id, docs: docs.map((d) => d.id) };
    };
    const first = await seed();
    await q(`DELETE FROM knowledge_documents WHERE id = $1`, [first.docs[0]]);
    expect(await count('knowledge_chunks', org.id)).toBe(2);
    await q(`DELETE FROM knowledge_bases WHERE id = $1`, [first.kb]);
    expect([await count('knowledge_documents', org.id), await count('knowledge_chunks', org.id)]).toEqual([
      0, 0,
    ]);
    await seed();
    await q(`DELETE FROM organizations WHERE id = $1`, [org.id]);
    for (const table of ['knowledge_bases', 'knowledge_documents', 'knowledge_chunks']) {
      expect(await count(table, org.id)).toBe(0);
    }
  });

  it('store the figures analytics read, computed from each run’s and step’s metrics as it is written', async () => {
    const q = <T>(text: string, values: unknown[] = []) =>
      database.pool.query<T & Record<string, unknown>>(text, values).then((r) => r.rows);
    const [org] = await q<{ id: string }>(
      `INSERT INTO organizations (name, slug) VALUES ('Figures', 'figures-' || gen_random_uuid()) RETURNING id`,
    );
    const [flow] = await q<{ id: string }>(
      `INSERT INTO workflows (name, organization_id) VALUES ('Flow', $1) RETURNING id`,
      [org.id],
    );
    const runs = await q<{ id: string; duration_us: string | null; total_tokens: string }>(
      `INSERT INTO workflow_executions (workflow_id, organization_id, status, started_at, completed_at, metrics)
       VALUES ($1, $2, 'completed', '2026-01-01T00:00:00Z', '2026-01-01T00:00:02.5Z', '{"totalTokens": 12}'),
         ($1, $2, 'running', '2026-01-01T00:00:00Z', null, '{"totalTokens": "12"}'),
         ($1, $2, 'cancelled', '2026-01-01T00:00:00Z', '2026-01-01T00:00:09Z', '{}')
       RETURNING id, duration_us, total_tokens`,
      [flow.id, org.id],
    );
    // Unfinished and cancelled runs have no duration; tokens written as text are none.
    expect(runs.map(({ id: _, ...figures }) => figures)).toEqual([
      { duration_us: '2500000', total_tokens: '12' },
      { duration_us: null, total_tokens: '0' },
      { duration_us: null, total_tokens: '0' },
    ]);
    const steps = await q(
      `INSERT INTO agent_executions (workflow_execution_id, status, metrics)
       VALUES ($1, 'completed', '{"executionTime": 250, "totalTokens": 7.5}'),
         ($1, 'completed', '{"executionTime": "250", "reused": true}'),
         ($1, 'failed', '{"executionTime": 250, "reused": null}')
       RETURNING execution_ms, total_tokens, reused`,
      [runs[0].id],
    );
    // A step time written as text is none, and a failed step has none; a null reused flag is no flag.
    expect(steps).toEqual([
      { execution_ms: 250, total_tokens: '7.5', reused: false },
      { execution_ms: null, total_tokens: '0', reused: true },
      { execution_ms: null, total_tokens: '0', reused: false },
    ]);
    // A later write computes them again.
    const [updated] = await q(
      `UPDATE workflow_executions SET status = 'failed', completed_at = '2026-01-01T00:01:00Z',
         metrics = '{"totalTokens": 3}' WHERE id = $1 RETURNING duration_us, total_tokens`,
      [runs[1].id],
    );
    expect(updated).toEqual({ duration_us: '60000000', total_tokens: '3' });
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
