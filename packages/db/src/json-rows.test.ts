import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowFromJson, rowJson } from './json-rows';
import { agents, organizations, subscriptions } from './schema';
import { createTestDatabase } from './testing/test-database';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('a row read as JSON', () => {
  it('decodes to exactly what a plain read of its table gives: timestamps, JSON, nulls and all', async () => {
    const [organization] = await database.db
      .insert(organizations)
      .values({
        name: 'Json Rows',
        slug: `json-rows-${randomUUID()}`,
      })
      .returning();
    await database.db
      .insert(subscriptions)
      .values({ organizationId: organization.id, trialEndsAt: new Date('2026-12-01T10:20:30.456Z') });
    const [agent] = await database.db
      .insert(agents)
      .values({
        organizationId: organization.id,
        name: 'Decoder',
        role: 'Checks',
        goal: 'Round trips',
        tools: ['search', 'fetch'],
        config: { nested: { list: [1, 'two', null] } },
      })
      .returning();

    for (const [table, alias, key, id] of [
      [organizations, 'o', organizations.id, organization.id],
      [subscriptions, 's', subscriptions.organizationId, organization.id],
      [agents, 'a', agents.id, agent.id],
    ] as const) {
      const [plain] = await database.db.select().from(table).where(eq(key, id));
      const { rows } = await database.db.execute<{ row: unknown }>(
        sql`select ${rowJson(alias)} as row from ${table} ${sql.raw(alias)}
          where ${sql.raw(alias)}.${sql.identifier(key.name)} = ${id}`,
      );
      expect(rowFromJson(table, rows[0].row)).toEqual(plain);
    }
  });
});
