import {
  budgetState,
  costMicros,
  INCLUDED_MODEL_SPEND_USD,
  isTimeZone,
  microsOfUsd,
  spendSourceLabels,
  triggerTypeLabels,
  usdOfMicros,
  type CostRow,
  type CostsQuery,
  type OrganizationBudget,
  type PlanId,
  type SpendSource,
  type WorkflowBudget,
} from '@crewline/contracts';
import type { Logger } from 'pino';
import { BadRequestError } from '../../platform/errors';
import type {
  LlmConnection,
  LlmGateway,
  LlmMeter,
  LlmProvider,
  LlmSpendHooks,
  LlmUsage,
} from '../../platform/llm';
import type { BudgetAlerts } from './budget-alerts';
import { budgetHooks, capRefusal, runBudget } from './budget-guard';
import { organizationBudgetFromJson, spentCapFromJson } from './budgets.columns';
import type { BudgetsRepository, StoredBudget } from './budgets.repository';
import type { PriceLookup } from './prices.columns';
import type { CappedScope, Settled, SpendCountersRepository } from './spend-counters.repository';
import type { PricesService } from './prices.service';
import type { SpendLedgerRepository } from './spend-ledger.repository';
import type { SpendGroupRow, SpendReportPresenter } from './spend-report.presenter';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The costs report's range when none is given: the last 30 days. */
const DEFAULT_RANGE_DAYS = 30;

/** The first instant of `at`'s calendar month in UTC. */
export const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

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
        : (triggerTypeLabels[row.key as keyof typeof triggerTypeLabels] ?? row.key);
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
 * the monthly budget, and the metering of model calls made outside runs' steps (a run's step is
 * metered by the run: its cost is written with the step).
 */
export function createSpendService(deps: {
  ledger: SpendLedgerRepository;
  report: SpendReportPresenter;
  budgets: BudgetsRepository;
  counters: SpendCountersRepository;
  prices: Pick<PricesService, 'priceTable'>;
  /** Where alerts go when a cap reaches 80 % or 100 % (built after this service: app.ts hands it over). */
  alerts?: () => BudgetAlerts | undefined;
  /** The organization's plan (null: the Free tier), for the spend its plan includes on the server's keys. */
  planOf(organizationId: string): Promise<PlanId | null>;
  /** Whether the server has a key of its own for any provider (else nothing is included). */
  serverKeys: boolean;
  clock?: () => Date;
  logger?: Logger;
}) {
  const now = () => deps.clock?.() ?? new Date();
  const { counters } = deps;

  /** The alerts a call's settlement reached, sent without holding the call up. */
  const alert = (organizationId: string) => (reached: Settled[]) => {
    void deps.alerts?.()?.sendAll(organizationId, reached);
  };

  /** The spend included on the server's keys this month, in micro-dollars (null: the server has no key). */
  async function includedSpendMicros(organizationId: string, own: number | null): Promise<number | null> {
    if (!deps.serverKeys) return null;
    if (own !== null) return own;
    return microsOfUsd(INCLUDED_MODEL_SPEND_USD[(await deps.planOf(organizationId)) ?? 'free']);
  }

  /**
   * The caps a call counts against: the organization's monthly cap, its workflow's (a run's), and,
   * through the server's key, the plan's included spend (`includedCap`, read only then).
   */
  async function scopesOf(
    stored: Pick<StoredBudget, 'monthlyCapMicros'>,
    serverKey: boolean,
    includedCap: () => Promise<number | null>,
    workflow?: { id: string; capMicros: number | undefined },
  ): Promise<CappedScope[]> {
    const scopes: CappedScope[] = [];
    if (stored.monthlyCapMicros !== null)
      scopes.push({ scope: 'organization', scopeId: '', capMicros: stored.monthlyCapMicros });
    if (workflow?.capMicros !== undefined)
      scopes.push({ scope: 'workflow', scopeId: workflow.id, capMicros: workflow.capMicros });
    if (serverKey) {
      const included = await includedCap();
      if (included !== null) scopes.push({ scope: 'plan', scopeId: '', capMicros: included });
    }
    return scopes;
  }

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
    const month = monthStart(now());
    const [stored, spent] = await Promise.all([
      deps.budgets.read(organizationId),
      deps.ledger.monthSpend(organizationId, month),
    ]);
    const included = await includedSpendMicros(organizationId, stored.includedSpendMicros);
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

  /** Prices a call outside a run's steps and keeps it in the ledger; a failure to keep it is logged, not the caller's. */
  async function record(
    meter: LlmMeter,
    connection: LlmConnection,
    priceOf: PriceLookup,
    model: string,
    usage: { inputTokens: number; cachedInputTokens?: number; outputTokens: number },
    calls: number,
  ) {
    try {
      const price = priceOf(connection.provider, model);
      await deps.ledger.record({
        organizationId: meter.organizationId,
        source: meter.source,
        workflowId: meter.workflowId,
        executionId: meter.executionId,
        agentId: meter.agentId,
        provider: connection.provider,
        model,
        serverKey: connection.serverKey === true,
        calls,
        inputTokens: usage.inputTokens,
        cachedInputTokens: usage.cachedInputTokens ?? 0,
        outputTokens: usage.outputTokens,
        costMicros: price ? costMicros(usage, price) : null,
      });
    } catch (error) {
      deps.logger?.error({ err: error, source: meter.source }, 'a model call could not be metered');
    }
  }

  const tokensOf = (usage: LlmUsage) => ({
    inputTokens: usage.promptTokens,
    cachedInputTokens: usage.cachedInputTokens,
    outputTokens: usage.completionTokens,
  });

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
        const reached = await counters.restart(organizationId, scope, monthStart(now()));
        if (reached) alert(organizationId)([reached]);
      }
      return budget(organizationId);
    },

    /**
     * The gateway every module calls models through: a request that carries a `meter` (a call outside
     * a run's steps: agent tests, the playground, knowledge and memory embeddings, AI tools) answers to
     * the organization's caps (refused with a 402 BudgetExceededError once one is spent) and is kept
     * in the spend ledger with its source once it answered. Requests without one pass as they are.
     */
    metered(llm: LlmGateway): LlmGateway {
      /** The call's price table and budget hooks (none when no cap applies). */
      async function guard(meter: LlmMeter, connection: LlmConnection, model: string) {
        const { organizationId } = meter;
        const [priceOf, stored] = await Promise.all([
          deps.prices.priceTable(organizationId),
          deps.budgets.read(organizationId),
        ]);
        const scopes = await scopesOf(stored, connection.serverKey === true, () =>
          includedSpendMicros(organizationId, stored.includedSpendMicros),
        );
        const hooks =
          scopes.length > 0
            ? budgetHooks({
                counters,
                organizationId,
                scopes,
                month: monthStart(now()),
                price: priceOf(connection.provider, model),
                alert: alert(organizationId),
              })
            : undefined;
        return { priceOf, hooks };
      }

      return {
        ...llm,
        async generate(request) {
          if (!request.meter) return llm.generate(request);
          const { priceOf, hooks } = await guard(request.meter, request.connection, request.model);
          const result = await llm
            .generate(hooks ? { ...request, spend: hooks } : request)
            .finally(() => hooks?.finish());
          const calls = result.steps.length || 1;
          await record(
            request.meter,
            request.connection,
            priceOf,
            result.model,
            tokensOf(result.usage),
            calls,
          );
          return result;
        },
        async embed(request) {
          if (!request.meter || request.texts.length === 0) return llm.embed(request);
          const { priceOf, hooks } = await guard(request.meter, request.connection, request.model);
          const characters = request.texts.reduce((sum, text) => sum + text.length, 0);
          await hooks?.beforeCall({ inputTokens: Math.ceil(characters / 3), outputTokens: 0 });
          const result = await llm.embed(request).finally(() => hooks?.finish());
          const usage = { promptTokens: result.tokens, completionTokens: 0, totalTokens: result.tokens };
          await hooks?.afterCall(usage);
          await record(request.meter, request.connection, priceOf, request.model, tokensOf(usage), 1);
          return result;
        },
      };
    },

    /**
     * A run's start is refused (402) when its organization's or its workflow's monthly cap is spent:
     * `spentCap` is what `spentCapJson` read with the workflow.
     */
    refuseSpentCap(spentCap: unknown): void {
      const spent = spentCapFromJson(spentCap);
      if (spent) throw capRefusal(spent.scope, spent.spentMicros, spent.capMicros);
    },

    /**
     * The budgets of one attempt at a run (docs/product-rules.md, Costs): its own per-run budget from
     * its workflow version's `config.budget` (starting from what its finished steps spent), the
     * workflow's and the organization's monthly caps, and the plan's included spend for calls through
     * the server's keys. `hooks` gives each model request its budget hooks, undefined when nothing
     * caps it: a run without budgets makes no statement for them.
     */
    forRun(run: {
      organizationId: string;
      workflowId: string;
      budget: WorkflowBudget | undefined;
      /** `organizationBudgetJson`'s value, read with the claim. */
      organizationBudget: unknown;
      priceOf: PriceLookup;
      spent: { micros: number; tokens: number };
    }): RunSpend {
      const { organizationId } = run;
      const stored = organizationBudgetFromJson(run.organizationBudget);
      const own = runBudget(run.budget, run.spent);
      const workflowCap =
        run.budget?.monthlyCapUsd !== undefined ? microsOfUsd(run.budget.monthlyCapUsd) : undefined;
      let included: Promise<number | null> | undefined;
      const includedCap = () =>
        (included ??= includedSpendMicros(organizationId, stored.includedSpendMicros));
      return {
        async hooks(provider, model, serverKey, firstOfStep) {
          const scopes = await scopesOf(stored, serverKey, includedCap, {
            id: run.workflowId,
            capMicros: workflowCap,
          });
          if (scopes.length === 0 && !own) return undefined;
          return budgetHooks({
            counters,
            organizationId,
            scopes,
            month: monthStart(now()),
            price: run.priceOf(provider, model),
            run: own,
            firstOfStep,
            alert: alert(organizationId),
          });
        },
        asksApproval: own?.onExceeded === 'approval',
        spent: () => ({
          spentUsd: usdOfMicros(own?.spentMicros ?? 0),
          capUsd: usdOfMicros(own?.maxCostMicros ?? 0),
        }),
        raise(capUsd) {
          if (own) own.maxCostMicros = microsOfUsd(capUsd);
        },
      };
    },
  };
}
export type SpendService = ReturnType<typeof createSpendService>;

/** A run attempt's budgets: the hooks of each model request (undefined: nothing caps it). */
export type RunSpend = {
  hooks(
    provider: LlmProvider,
    model: string,
    serverKey: boolean,
    /** The request is its step's first (see budgetHooks). */
    firstOfStep: boolean,
  ): Promise<(LlmSpendHooks & { finish(): Promise<void> }) | undefined>;
  /** Past its own budget, the run waits for a person to raise it. */
  asksApproval: boolean;
  /** What the run spent and its budget now, in USD. */
  spent(): { spentUsd: number; capUsd: number };
  /** A person raised the run's budget to `capUsd`. */
  raise(capUsd: number): void;
};
