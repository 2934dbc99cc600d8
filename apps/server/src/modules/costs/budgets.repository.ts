import { eq, sql } from 'drizzle-orm';
import { organizationBudgets, type Db } from '@crewline/db';

/** An organization's budget as stored: micro-dollars, null where none is set. */
export type StoredBudget = { monthlyCapMicros: number | null; includedSpendMicros: number | null };

/** The organizations' monthly budgets (`organization_budgets`); every statement names the organization. */
export function createBudgetsRepository(db: Db) {
  return {
    /** The organization's budget; no caps when it never set one. */
    async read(organizationId: string): Promise<StoredBudget> {
      const [row] = await db
        .select({
          monthlyCapMicros: organizationBudgets.monthlyCapMicros,
          includedSpendMicros: organizationBudgets.includedSpendMicros,
        })
        .from(organizationBudgets)
        .where(eq(organizationBudgets.organizationId, organizationId));
      return row ?? { monthlyCapMicros: null, includedSpendMicros: null };
    },

    /** Sets (or with null removes) the organization's monthly cap. */
    async setMonthlyCap(organizationId: string, monthlyCapMicros: number | null): Promise<void> {
      await db
        .insert(organizationBudgets)
        .values({ organizationId, monthlyCapMicros })
        .onConflictDoUpdate({
          target: organizationBudgets.organizationId,
          set: { monthlyCapMicros, updatedAt: sql`now()` },
        });
    },
  };
}
export type BudgetsRepository = ReturnType<typeof createBudgetsRepository>;
