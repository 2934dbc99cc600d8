import { and, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditEvent, AuditFilters, AuditTargetType } from '@crewline/contracts';
import { auditEvents, type Db, type Tx } from '@crewline/db';
import type { RequestActor } from '../../platform/request-actor';

/** One change to record: who, from where, what, to what, and which fields (never their values if secret). */
export type AuditEntry = {
  organizationId: string;
  actor: RequestActor;
  action: AuditAction;
  /** Its name at the time: a value, or SQL the insert reads it with (a user's display name). */
  target: { type: AuditTargetType; id?: string | null; name?: string | SQL | null };
  details?: Record<string, unknown>;
};

/** Where the log is keyset-paged from: the last event's exact time (microseconds, as text) and id. */
export type AuditCursor = { at: string; id: string };

/**
 * The SQL of auth's users table the log needs (auth/users.columns.ts), handed over by app.ts: auth
 * records its sign-ins here, so this module cannot import it.
 */
export type AuditUsersSql = { displayName: (user: SQL) => SQL<string | null> };

/** A statement's executor: the caller's transaction (the change and its event commit together). */
export type AuditExecutor = Pick<Tx, 'execute'>;

export function createAuditRepository(db: Db, users: AuditUsersSql) {
  const filtersWhere = (organizationId: string, filters: AuditFilters, after?: AuditCursor) =>
    and(
      eq(auditEvents.organizationId, organizationId),
      filters.from ? sql`${auditEvents.at} >= ${filters.from}::timestamptz` : undefined,
      filters.to ? sql`${auditEvents.at} < ${filters.to}::timestamptz` : undefined,
      filters.action ? eq(auditEvents.action, filters.action) : undefined,
      filters.actorId ? eq(auditEvents.actorId, filters.actorId) : undefined,
      // `at <= t` alone lets the (organization_id, at desc, id desc) index bound the scan.
      after
        ? and(
            sql`${auditEvents.at} <= ${after.at}::timestamptz`,
            or(sql`${auditEvents.at} < ${after.at}::timestamptz`, lt(auditEvents.id, after.id)),
          )
        : undefined,
    );

  async function page(
    organizationId: string,
    filters: AuditFilters,
    limit: number,
    after?: AuditCursor,
  ): Promise<{ items: AuditEvent[]; next: AuditCursor | null }> {
    const rows = await db
      .select({
        id: auditEvents.id,
        at: auditEvents.at,
        // The exact timestamp for the cursor: a JS Date keeps only milliseconds.
        cursorAt: sql<string>`${auditEvents.at}::text`,
        actorId: auditEvents.actorId,
        actorName: auditEvents.actorName,
        action: auditEvents.action,
        targetType: auditEvents.targetType,
        targetId: auditEvents.targetId,
        targetName: auditEvents.targetName,
        ip: auditEvents.ip,
        details: auditEvents.details,
      })
      .from(auditEvents)
      .where(filtersWhere(organizationId, filters, after))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(limit + 1);
    const kept = rows.slice(0, limit);
    const last = kept.at(-1);
    return {
      items: kept.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        // The user may be gone (actor_id set null): the name they had stays.
        actor:
          row.actorId || row.actorName ? { id: row.actorId, name: row.actorName ?? 'Deleted user' } : null,
        action: row.action as AuditAction,
        target: { type: row.targetType, id: row.targetId, name: row.targetName },
        ip: row.ip,
        details: row.details,
      })),
      next: rows.length > limit && last ? { at: last.cursorAt, id: last.id } : null,
    };
  }

  return {
    /**
     * Inserts the event with the caller's executor, so it commits or rolls back with the change. The
     * actor's name is read in the same statement and kept (the user may be renamed or deleted later).
     */
    async record(executor: AuditExecutor, entry: AuditEntry): Promise<void> {
      const actorId = entry.actor.userId;
      // A change made with an API key is its creator's, by the key: the log tells it from their own.
      const key = entry.actor.apiKey;
      const details = key
        ? { ...entry.details, via: 'api_key', apiKeyId: key.id, apiKeyName: key.name }
        : (entry.details ?? {});
      await executor.execute(sql`insert into ${auditEvents}
        (organization_id, actor_id, actor_name, action, target_type, target_id, target_name, ip, details)
        values (${entry.organizationId}::uuid, ${actorId}::uuid,
          ${actorId ? users.displayName(sql`${actorId}::uuid`) : null},
          ${entry.action}, ${entry.target.type}, ${entry.target.id ?? null}, ${entry.target.name ?? null},
          ${entry.actor.ip}, ${JSON.stringify(details)}::jsonb)`);
    },

    page,

    /** Every event the filters select, newest first, read a page at a time (the CSV export streams it). */
    async *all(organizationId: string, filters: AuditFilters, pageSize = 500): AsyncGenerator<AuditEvent> {
      let after: AuditCursor | undefined;
      for (;;) {
        const { items, next } = await page(organizationId, filters, pageSize, after);
        yield* items;
        if (!next) return;
        after = next;
      }
    },

    /** Deletes the events older than `days` days, across organizations; answers how many. */
    async prune(days: number): Promise<number> {
      const result = await db.execute(
        sql`delete from ${auditEvents} where ${auditEvents.at} < now() - make_interval(days => ${days}::int)`,
      );
      return result.rowCount ?? 0;
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
