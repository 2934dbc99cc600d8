import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { agents, organizationInvitations, userOrganizations, type Db } from '@crewline/db';
import type { LimitReader } from './billing.repository';

/**
 * What plan limits count, in other modules' tables (agents, memberships, invitations): one COUNT
 * each, on indexes, read only. A limit check passes its transaction (`q`), which holds the
 * subscription's lock (billing.repository.ts lockSubscription), so the counts see every insert
 * committed before (docs/decisions/0023-plan-limits-under-lock.md).
 */
export function createPlanUsagePresenter(db: Db) {
  return {
    /** agents_organization_id_idx. */
    async countAgents(organizationId: string, q: LimitReader = db): Promise<number> {
      const [row] = await q
        .select({ n: count() })
        .from(agents)
        .where(eq(agents.organizationId, organizationId));
      return row.n;
    },

    /** user_organizations_organization_id_idx. */
    async countMembers(organizationId: string, q: LimitReader = db): Promise<number> {
      const [row] = await q
        .select({ n: count() })
        .from(userOrganizations)
        .where(eq(userOrganizations.organizationId, organizationId));
      return row.n;
    },

    /** Pending invitations, except one to `exceptEmail` (a new invitation to it replaces it). */
    async countPendingInvitations(
      organizationId: string,
      exceptEmail?: string,
      q: LimitReader = db,
    ): Promise<number> {
      const [row] = await q
        .select({ n: count() })
        .from(organizationInvitations)
        .where(
          and(
            eq(organizationInvitations.organizationId, organizationId),
            isNull(organizationInvitations.acceptedAt),
            isNull(organizationInvitations.revokedAt),
            gt(organizationInvitations.expiresAt, sql`now()`),
            exceptEmail === undefined ? undefined : ne(organizationInvitations.email, exceptEmail),
          ),
        );
      return row.n;
    },
  };
}
export type PlanUsagePresenter = ReturnType<typeof createPlanUsagePresenter>;
