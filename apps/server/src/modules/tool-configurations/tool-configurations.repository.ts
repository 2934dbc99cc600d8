import { and, eq } from 'drizzle-orm';
import { toolConfigurations, type Db } from '@crewline/db';

export type ToolConfigurationRow = typeof toolConfigurations.$inferSelect;

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
