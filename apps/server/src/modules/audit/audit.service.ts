import { Readable } from 'node:stream';
import type { AuditEvent, AuditFilters } from '@crewline/contracts';
import { AUDIT_CSV_HEADER, auditCsvLine, csvLine } from './audit-csv';
import type { AuditCursor, AuditEntry, AuditExecutor, AuditRepository } from './audit.repository';

export type { AuditCursor, AuditEntry, AuditExecutor } from './audit.repository';

/*
 * The audit log (docs/product-rules.md, Audit log). Other modules record their changes with
 * `record(tx, entry)` inside the transaction that makes the change (app.ts hands them this service,
 * typed `AuditRecorder`), so a change and its event commit or roll back together.
 */
export function createAuditService(deps: { repository: AuditRepository; retentionDays: number }) {
  const { repository, retentionDays } = deps;
  return {
    /** Records one change with the caller's transaction (its executor). */
    record: (executor: AuditExecutor, entry: AuditEntry): Promise<void> => repository.record(executor, entry),

    /** One page of the organization's events, newest first; `next` is where the following page starts. */
    list(
      organizationId: string,
      filters: AuditFilters & { limit: number; after?: AuditCursor },
    ): Promise<{ items: AuditEvent[]; next: AuditCursor | null }> {
      const { limit, after, ...only } = filters;
      return repository.page(organizationId, only, limit, after);
    },

    /** Every event the filters select as CSV, streamed a page at a time (header line first). */
    csv(organizationId: string, filters: AuditFilters): Readable {
      async function* lines() {
        yield csvLine(AUDIT_CSV_HEADER);
        for await (const event of repository.all(organizationId, filters)) yield auditCsvLine(event);
      }
      return Readable.from(lines());
    },

    /** Deletes the events past AUDIT_RETENTION_DAYS (the hourly prune, start.ts). */
    prune: (): Promise<number> => repository.prune(retentionDays),
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
/** What another module is handed to record its changes. */
export type AuditRecorder = Pick<AuditService, 'record'>;
