import {
  budgetState,
  isTimeZone,
  microsOfUsd,
  spendSourceLabels,
  executionTriggerLabels,
  usdOfMicros,
  type CostRow,
  type CostsQuery,
  type ExecutionTrigger,
  type OrganizationBudget,
  type SpendSource,
} from '@crewline/contracts';
import { BadRequestError } from '../../platform/errors';
import { capRefusal } from './budget-guard';
import type { BudgetScopes } from './budget-scopes';
import { spentCapFromJson } from './budgets.columns';
import type { BudgetsRepository } from './budgets.repository';
import type { SpendCountersRepository } from './spend-counters.repository';
import type { SpendLedgerRepository } from './spend-ledger.repository';
import type { SpendGroupRow, SpendReportPresenter } from './spend-report.presenter';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The costs report's range when none is given: the last 30 days. */
const DEFAULT_RANGE_DAYS = 30;

/** A group's name as the Costs tab shows it. */
function labelOf(groupBy: CostsQuery['groupBy'], row: SpendGroupRow): string {
  switch (groupBy) {
    case 'workflow':
      return row.name ?? (row.key === '' ? 'Outside workflows' : 'Deleted workflow');
    case 'agent':
      return row.name ?? (row.key === '' ? 'No agent' : 'Deleted agent');
    case 'model':
      return row.key.slice(row.key.indexOf('/') + 1);
    case 'source':
      return spendSourceLabels[row.key as SpendSource] ?? row.key;
    case 'trigger':
      return row.key === ''
        ? 'Outside runs'
        : (executionTriggerLabels[row.key as keyof typeof executionTriggerLabels] ?? row.key);
    case 'day':
      return row.key;
  }
}

const toRow = (groupBy: CostsQuery['groupBy'], row: SpendGroupRow): CostRow => ({
  key: row.key,
  label: labelOf(groupBy, row),
  costUsd: usdOfMicros(Number(row.cost_micros ?? 0)),
  inputTokens: Number(row.input_tokens),
  cachedInputTokens: Number(row.cached_input_tokens),
  outputTokens: Number(row.output_tokens),
  calls: Number(row.calls),
  unpricedCalls: Number(row.unpriced_calls),
  unpricedModels: row.unpriced_models ?? [],
});

/**
 * What the organization spends on models (docs/product-rules.md, Costs): the spend ledger's report,
 * the monthly budget, and the refusal of a run's start once a monthly cap is spent. Calls are metered
 * by the metered gateway (calls outside runs) and by the runs themselves (a step's cost is written
 * with the step); run-budgets.service.ts holds a run's budgets.
 */
export function createSpendService(deps: {
  ledger: Pick<SpendLedgerRepository, 'monthSpend'>;
  report: SpendReportPresenter;
  budgets: BudgetsRepository;
  counters: SpendCountersRepository;
  scopes: BudgetScopes;
  clock?: () => Date;
}) {
  const now = () => deps.clock?.() ?? new Date();
  const { counters, scopes: caps } = deps;

  /** Where a month's spend stands against a cap: its counter may know it is spent before the ledger does (a call refused). */
  async function stateOf(
    organizationId: string,
    scope: 'organization' | 'plan',
    spentUsd: number,
    capUsd: number | null,
    month: Date,
  ) {
    if (capUsd === null) return budgetState(spentUsd, null);
    const counted = await counters.state(organizationId, { scope, scopeId: '' }, month);
    return counted.exhausted
      ? 'exceeded'
      : budgetState(Math.max(spentUsd, usdOfMicros(counted.spentMicros)), capUsd);
  }

  async function budget(organizationId: string): Promise<OrganizationBudget> {
    const month = caps.month();
    const [stored, spent] = await Promise.all([
      deps.budgets.read(organizationId),
      deps.ledger.monthSpend(organizationId, month),
    ]);
    const included = await caps.includedSpendMicros(organizationId, stored.includedSpendMicros);
    const capUsd = stored.monthlyCapMicros === null ? null : usdOfMicros(stored.monthlyCapMicros);
    const spentUsd = usdOfMicros(spent.total);
    const includedCap = included === null ? null : usdOfMicros(included);
    const includedSpent = usdOfMicros(spent.serverKey);
    return {
      month: month.toISOString().slice(0, 7),
      monthlyCapUsd: capUsd,
      spentThisMonthUsd: spentUsd,
      state: await stateOf(organizationId, 'organization', spentUsd, capUsd, month),
      includedSpend: {
        capUsd: includedCap,
        spentUsd: includedSpent,
        state: await stateOf(organizationId, 'plan', includedSpent, includedCap, month),
      },
    };
  }

  return {
    /** GET /api/usage/costs: the range's spend by one grouping (rows by day in order, the others by cost). */
    async report(organizationId: string, query: CostsQuery): Promise<CostRow[]> {
      if (!isTimeZone(query.tz))
        throw new BadRequestError('tz must be an IANA time zone such as Europe/Paris');
      const to = query.to ? new Date(query.to) : now();
      const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
      const rows = (await deps.report.groups(organizationId, { from, to }, query.groupBy, query.tz)).map(
        (row) => toRow(query.groupBy, row),
      );
      return query.groupBy === 'day'
        ? rows.sort((a, b) => (a.key < b.key ? -1 : 1))
        : rows.sort((a, b) => b.costUsd - a.costUsd || b.calls - a.calls || (a.label < b.label ? -1 : 1));
    },

    budget,

    /**
     * PUT /api/organization/budget (the route checks the role). A new cap counts the month's spend so
     * far: its counter restarts from the ledger, and its alerts can go out again below 80 %.
     */
    async setBudget(organizationId: string, monthlyCapUsd: number | null): Promise<OrganizationBudget> {
      const capMicros = monthlyCapUsd === null ? null : microsOfUsd(monthlyCapUsd);
      await deps.budgets.setMonthlyCap(organizationId, capMicros);
      if (capMicros !== null) {
        const scope = { scope: 'organization' as const, scopeId: '', capMicros };
        const reached = await counters.restart(organizationId, scope, caps.month());
        if (reached) caps.alert(organizationId)([reached]);
      }
      return budget(organizationId);
    },

    /**
     * A run's start is refused (402) when its organization's or its workflow's monthly cap is spent,
     * and a chat run's (trigger `chat`) when its chat app's is: `spentCap` is what `spentCapJson`
     * read with the workflow. The app's cap counts its chat runs only: other runs go on.
     */
    refuseSpentCap(spentCap: unknown, trigger: ExecutionTrigger): void {
      const spent = spentCapFromJson(spentCap);
      if (spent && (spent.scope !== 'chat' || trigger === 'chat'))
        throw capRefusal(spent.scope, spent.spentMicros, spent.capMicros);
    },
  };
}
export type SpendService = ReturnType<typeof createSpendService>;
