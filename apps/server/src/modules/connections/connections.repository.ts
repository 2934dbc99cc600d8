import { and, eq } from 'drizzle-orm';
import { connections, type Db } from '@crewline/db';
import type { AuditEntry, AuditRecorder } from '../audit/audit.service';

export type ConnectionRow = typeof connections.$inferSelect;

/** A connection change's audit event, without the organization and target the upsert knows. */
export type ConnectionAudit = Pick<AuditEntry, 'actor' | 'action' | 'details'>;

export function createConnectionsRepository(db: Db, audit: AuditRecorder) {
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
    /** Saves the configuration and its audit event (`event`) in one transaction. */
    async upsert(
      organizationId: string,
      configId: string,
      values: { config: Record<string, unknown>; isActive: boolean },
      event: ConnectionAudit,
    ): Promise<ConnectionRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(connections)
          .values({ organizationId, configId, ...values })
          .onConflictDoUpdate({
            target: [connections.organizationId, connections.configId],
            set: { ...values, updatedAt: new Date() },
          })
          .returning();
        await audit.record(tx, {
          ...event,
          organizationId,
          target: { type: 'connection', id: configId, name: configId },
        });
        return row;
      });
    },
  };
}
export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
