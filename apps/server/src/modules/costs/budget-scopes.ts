import { microsOfUsd, type PlanId } from '@crewline/contracts';
import type { BudgetAlerts } from './budget-alerts';
import type { StoredBudget } from './budgets.repository';
import type { CappedScope, Settled } from './spend-counters.repository';

/** The first instant of `at`'s calendar month in UTC: the month spend counts in. */
const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/**
 * Which caps an organization's model calls count against (docs/product-rules.md, Costs), shared by
 * the metered gateway, the runs' budgets and the budget's answer: its monthly cap, a run's workflow's
 * (and a chat run's app's), and the plan's included spend for calls through the server's keys; and where their alerts go.
 */
export function createBudgetScopes(deps: {
  /** The organization's plan (null: the Free tier), for the spend its plan includes on the server's keys. */
  planOf(organizationId: string): Promise<PlanId | null>;
  /** Whether the server has a key of its own for any provider (else nothing is included). */
  serverKeys: boolean;
  /** The monthly use of the server's keys each plan includes, in USD (INCLUDED_MODEL_SPEND_USD). */
  includedUsd: Record<PlanId | 'free', number>;
  /** Where alerts go when a cap reaches 80 % or 100 % (built after this: app.ts hands it over). */
  alerts?: () => BudgetAlerts | undefined;
  clock?: () => Date;
}) {
  const now = () => deps.clock?.() ?? new Date();

  /** The spend included on the server's keys this month, in micro-dollars (null: the server has no key). */
  async function includedSpendMicros(organizationId: string, own: number | null): Promise<number | null> {
    if (!deps.serverKeys) return null;
    if (own !== null) return own;
    return microsOfUsd(deps.includedUsd[(await deps.planOf(organizationId)) ?? 'free']);
  }

  return {
    /** The month a call made now counts in. */
    month: () => monthStart(now()),

    includedSpendMicros,

    /**
     * The caps a call counts against: the organization's monthly cap, its workflow's (a run's), its
     * workflow's chat app's (a run with trigger `chat`), and, through the server's key, the plan's
     * included spend (`includedCap`, read only then).
     */
    async scopesOf(
      stored: Pick<StoredBudget, 'monthlyCapMicros'>,
      serverKey: boolean,
      includedCap: () => Promise<number | null>,
      workflow?: { id: string; capMicros: number | undefined; chatCapMicros?: number },
    ): Promise<CappedScope[]> {
      const scopes: CappedScope[] = [];
      if (stored.monthlyCapMicros !== null)
        scopes.push({ scope: 'organization', scopeId: '', capMicros: stored.monthlyCapMicros });
      if (workflow?.capMicros !== undefined)
        scopes.push({ scope: 'workflow', scopeId: workflow.id, capMicros: workflow.capMicros });
      if (workflow?.chatCapMicros !== undefined)
        scopes.push({ scope: 'chat', scopeId: workflow.id, capMicros: workflow.chatCapMicros });
      if (serverKey) {
        const included = await includedCap();
        if (included !== null) scopes.push({ scope: 'plan', scopeId: '', capMicros: included });
      }
      return scopes;
    },

    /** Sends the alerts a call's settlement reached, without holding the call up. */
    alert: (organizationId: string) => (reached: Settled[]) => {
      void deps.alerts?.()?.sendAll(organizationId, reached);
    },
  };
}
export type BudgetScopes = ReturnType<typeof createBudgetScopes>;
