import { and, eq } from 'drizzle-orm';
import { connections, type Db } from '@crewline/db';

export type ConnectionRow = typeof connections.$inferSelect;

export function createConnectionsRepository(db: Db) {
  return {
    async list(organizationId: string): Promise<ConnectionRow[]> {
      return db.select().from(connections).where(eq(connections.organizationId, organizationId));
    },
    async get(organizationId: string, configId: string): Promise<ConnectionRow | undefined> {
      const [row] = await db
        .select()
        .from(connections)
        .where(and(eq(connections.organizationId, organizationId), eq(connections.configId, configId)))
        .limit(1);
      return row;
    },
    /** Ids of the organization's active configurations. */
    async activeIds(organizationId: string): Promise<string[]> {
      const rows = await db
        .select({ configId: connections.configId })
        .from(connections)
        .where(and(eq(connections.organizationId, organizationId), eq(connections.isActive, true)));
      return rows.map((r) => r.configId);
    },
    async upsert(
      organizationId: string,
      configId: string,
      values: { config: Record<string, unknown>; isActive: boolean },
    ): Promise<ConnectionRow> {
      const [row] = await db
        .insert(connections)
        .values({ organizationId, configId, ...values })
        .onConflictDoUpdate({
          target: [connections.organizationId, connections.configId],
          set: { ...values, updatedAt: new Date() },
        })
        .returning();
      return row;
    },
  };
}
export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
