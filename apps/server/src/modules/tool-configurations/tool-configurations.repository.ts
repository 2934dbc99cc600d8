import { and, eq, sql, type SQL } from 'drizzle-orm';
import { rowFromJson, rowJson, toolConfigurations, type Db } from '@crewline/db';

export type ToolConfigurationRow = typeof toolConfigurations.$inferSelect;

/**
 * The configurations of the organization of the row named `row` (its organization_id column), as one
 * JSON column of a read of that table: a run's claim reads the connections its agents use with it.
 * `configurationsFromJson` decodes it.
 */
export const configurationsJson = (row: string): SQL<unknown> => sql`coalesce((
  select json_agg(${rowJson('c')}) from tool_configurations c
  where c.organization_id = ${sql.raw(`"${row}"."organization_id"`)}), '[]'::json)`;

export function configurationsFromJson(json: unknown): ToolConfigurationRow[] {
  return (json as unknown[]).map((row) => rowFromJson(toolConfigurations, row));
}

export function createToolConfigurationsRepository(db: Db) {
  return {
    async list(organizationId: string): Promise<ToolConfigurationRow[]> {
      return db
        .select()
        .from(toolConfigurations)
        .where(eq(toolConfigurations.organizationId, organizationId));
    },
    async get(organizationId: string, configId: string): Promise<ToolConfigurationRow | undefined> {
      const [row] = await db
        .select()
        .from(toolConfigurations)
        .where(
          and(
            eq(toolConfigurations.organizationId, organizationId),
            eq(toolConfigurations.configId, configId),
          ),
        )
        .limit(1);
      return row;
    },
    async upsert(
      organizationId: string,
      configId: string,
      values: { config: Record<string, unknown>; isActive: boolean },
    ): Promise<ToolConfigurationRow> {
      const [row] = await db
        .insert(toolConfigurations)
        .values({ organizationId, configId, ...values })
        .onConflictDoUpdate({
          target: [toolConfigurations.organizationId, toolConfigurations.configId],
          set: { ...values, updatedAt: new Date() },
        })
        .returning();
      return row;
    },
  };
}
export type ToolConfigurationsRepository = ReturnType<typeof createToolConfigurationsRepository>;
