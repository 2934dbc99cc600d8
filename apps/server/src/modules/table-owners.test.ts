import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { schema } from '@crewline/db';

/*
 * Each table has one owning module, the only one whose SQL names it (docs/architecture.md, Modules):
 * another module reaches it through the owner's service or, inside its own statement, through the SQL
 * the owner's `*.columns.ts` offers; a `*.presenter.ts` (a read model spanning several modules'
 * tables, writing nothing) may read any of them. A file names a table when it imports its Drizzle
 * table from @crewline/db or writes it after from/join/update/into in raw SQL.
 */
const OWNERS: Record<string, string> = {
  users: 'auth',
  auth_sessions: 'auth',
  account_tokens: 'auth',
  organizations: 'auth',
  user_organizations: 'auth',
  organization_invitations: 'organizations',
  subscriptions: 'billing',
  organization_usage: 'billing',
  stripe_events: 'billing',
  agents: 'agents',
  workflows: 'workflows',
  workflow_versions: 'workflows',
  workflow_publishing: 'mcp',
  chat_threads: 'chat',
  chat_messages: 'chat',
  workflow_executions: 'executions',
  agent_executions: 'executions',
  approvals: 'executions',
  approval_decisions: 'executions',
  approval_links: 'executions',
  microsoft_tokens: 'microsoft',
  microsoft_oauth_states: 'microsoft',
  mcp_oauth_flows: 'tools',
  email_trigger_messages: 'triggers',
  webhook_signatures_seen: 'triggers',
  workflow_templates: 'templates',
  agent_templates: 'templates',
  tools: 'tools',
  agent_tools: 'tools',
  tool_configurations: 'connections',
  api_keys: 'api-keys',
  oauth_clients: 'oauth',
  oauth_grants: 'oauth',
  oauth_tokens: 'oauth',
  knowledge_bases: 'knowledge',
  knowledge_documents: 'knowledge',
  knowledge_chunks: 'knowledge',
  agent_memories: 'memory',
  datasets: 'evaluations',
  dataset_items: 'evaluations',
  evaluations: 'evaluations',
  eval_runs: 'evaluations',
  eval_run_items: 'evaluations',
  worker_heartbeats: 'system',
  sales_inquiries: 'sales',
  model_prices: 'costs',
  model_usage: 'costs',
  spend_counters: 'costs',
  organization_budgets: 'costs',
  audit_events: 'audit',
  // Not a module's: platform/rate-limit.repository.ts counts for auth, sales and webhooks.
  rate_limit_events: 'platform',
};

const modulesDir = import.meta.dirname;
const tables = Object.entries(schema)
  .filter(([, value]) => is(value, PgTable))
  .map(([symbol, table]) => ({ symbol, name: getTableName(table as PgTable) }));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** The tables a source file names: its Drizzle table imports and the tables of its raw SQL. */
function tablesNamedIn(source: string): string[] {
  const imported = new Set(
    [...source.matchAll(/import\s*\{([^}]*)\}\s*from '@crewline\/db'/g)].flatMap(([, names]) =>
      names.split(',').map((name) =>
        name
          .replace(/\btype\b/, '')
          .split(' as ')[0]
          .trim(),
      ),
    ),
  );
  return tables
    .filter(
      ({ symbol, name }) =>
        imported.has(symbol) || new RegExp(`\\b(from|join|update|into)\\s+"?${name}"?\\b`, 'i').test(source),
    )
    .map(({ name }) => name);
}

describe('table ownership', () => {
  it('names an owner for every table of the schema, and no table it lacks', () => {
    expect(tables.map(({ name }) => name).filter((name) => !OWNERS[name])).toEqual([]);
    expect(Object.keys(OWNERS).filter((name) => !tables.some((table) => table.name === name))).toEqual([]);
  });

  it("lets no module's SQL name another module's table, but through the owner's columns or a presenter", () => {
    const trespasses = sourceFiles(modulesDir).flatMap((file) => {
      const relative = path.relative(modulesDir, file).split(path.sep).join('/');
      const module = relative.split('/')[0];
      if (relative.endsWith('.presenter.ts')) return [];
      return tablesNamedIn(readFileSync(file, 'utf8'))
        .filter((table) => OWNERS[table] !== module)
        .map((table) => `${relative} names ${table} (owned by ${OWNERS[table]})`);
    });
    expect(trespasses).toEqual([]);
  });
});
