import { microsOfUsd, usdOfMicros, type WorkflowBudget } from '@crewline/contracts';
import type { LlmProvider, LlmSpendHooks } from '../../platform/llm';
import { budgetHooks, runBudget } from './budget-guard';
import type { BudgetScopes } from './budget-scopes';
import { chatCapFromColumn, organizationBudgetFromJson } from './budgets.columns';
import type { PriceLookup } from './prices.columns';
import type { SpendCountersRepository } from './spend-counters.repository';

/** The budgets of runs' attempts (modules/executions' run-attempt.ts asks for each attempt's). */
export function createRunBudgets(deps: { counters: SpendCountersRepository; scopes: BudgetScopes }) {
  const { counters, scopes: caps } = deps;
  return {
    /**
     * The budgets of one attempt at a run (docs/product-rules.md, Costs): its own per-run budget from
     * its workflow version's `config.budget` (starting from what its finished steps spent), the
     * workflow's, its chat app's (a chat run's) and the organization's monthly caps, and the plan's
     * included spend for calls through the server's keys. `hooks` gives each model request its budget hooks, undefined when nothing
     * caps it: a run without budgets makes no statement for them.
     */
    forRun(run: {
      organizationId: string;
      workflowId: string;
      budget: WorkflowBudget | undefined;
      /** `organizationBudgetJson`'s value, read with the claim. */
      organizationBudget: unknown;
      /** `runChatCapSql`'s value, read with the claim: a chat run's app's cap (absent: none). */
      chatCap?: unknown;
      priceOf: PriceLookup;
      spent: { micros: number; tokens: number };
    }): RunSpend {
      const { organizationId } = run;
      const stored = organizationBudgetFromJson(run.organizationBudget);
      const own = runBudget(run.budget, run.spent);
      const workflowCap =
        run.budget?.monthlyCapUsd !== undefined ? microsOfUsd(run.budget.monthlyCapUsd) : undefined;
      const chatCapMicros = chatCapFromColumn(run.chatCap);
      let included: Promise<number | null> | undefined;
      const includedCap = () =>
        (included ??= caps.includedSpendMicros(organizationId, stored.includedSpendMicros));
      return {
        async hooks(provider, model, serverKey, firstOfStep) {
          const scopes = await caps.scopesOf(stored, serverKey, includedCap, {
            id: run.workflowId,
            capMicros: workflowCap,
            chatCapMicros,
          });
          if (scopes.length === 0 && !own) return undefined;
          return budgetHooks({
            counters,
            organizationId,
            scopes,
            month: caps.month(),
            price: run.priceOf(provider, model),
            run: own,
            firstOfStep,
            alert: caps.alert(organizationId),
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
export type RunBudgets = ReturnType<typeof createRunBudgets>;

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
