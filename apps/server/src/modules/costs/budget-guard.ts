import {
  budgetMessages,
  costMicros,
  usdOfMicros,
  type ModelPrice,
  type WorkflowBudget,
} from '@crewline/contracts';
import { BudgetExceededError } from '../../platform/errors';
import type { LlmSpendHooks, LlmUsage } from '../../platform/llm';
import type { CappedScope, Settled, SpendCountersRepository } from './spend-counters.repository';

/**
 * What one run has spent against its own budget (a workflow's `config.budget`), across its steps:
 * kept in the attempt's memory, starting from the steps earlier attempts finished.
 */
export type RunBudget = {
  maxCostMicros?: number;
  maxTokens?: number;
  spentMicros: number;
  tokens: number;
  /** Past it, the run waits for a person to raise it (checked only before a step's first call) instead of failing. */
  onExceeded: 'fail' | 'approval';
};

/** A run's budget from its workflow's settings and what its finished steps spent; undefined without one. */
export function runBudget(
  budget: WorkflowBudget | undefined,
  spent: { micros: number; tokens: number },
): RunBudget | undefined {
  if (budget?.maxCostPerRunUsd === undefined && budget?.maxTokensPerRun === undefined) return undefined;
  return {
    ...(budget.maxCostPerRunUsd !== undefined
      ? { maxCostMicros: Math.round(budget.maxCostPerRunUsd * 1e6) }
      : {}),
    ...(budget.maxTokensPerRun !== undefined ? { maxTokens: budget.maxTokensPerRun } : {}),
    spentMicros: spent.micros,
    tokens: spent.tokens,
    onExceeded: budget.onExceeded ?? 'fail',
  };
}

/** The refusal of a scope's cap, in its words. */
export function capRefusal(scope: CappedScope['scope'], spentMicros: number, capMicros: number) {
  const [spent, cap] = [usdOfMicros(spentMicros), usdOfMicros(capMicros)];
  return new BudgetExceededError(budgetMessages[scope](spent, cap), scope, spent, cap);
}

/**
 * The budgets one model request answers to (docs/product-rules.md, Costs), as the gateway's spend
 * hooks. Before each call: the run's own budget (in memory) with the call's worst case, then a
 * reservation of that worst case in every capped scope (one conditional update); the first call is
 * refused at a cap, the later calls of the same request are not, so a step under way finishes
 * ("running runs finish their current step and stop"); a refusal from 80 % on marks the cap spent.
 * After each call: the real cost settled, the
 * run's figures added to, and the alerts a cap reached for the first time handed to `alert`. A
 * request that failed mid-call takes its reservation back with `finish`.
 */
export function budgetHooks(deps: {
  counters: Pick<SpendCountersRepository, 'reserve' | 'release' | 'settle' | 'exhausted'>;
  organizationId: string;
  scopes: CappedScope[];
  /** The month the spend counts in (its first instant, UTC). */
  month: Date;
  /** The called model's price; a model without one spends nothing the caps can count. */
  price: Pick<ModelPrice, 'inputPerMillion' | 'cachedInputPerMillion' | 'outputPerMillion'> | undefined;
  run?: RunBudget;
  /**
   * The request is its step's first: a run whose budget asks for approval is checked only then (when
   * nothing of the step has run, so it can wait); its later requests go on, and the next step waits.
   */
  firstOfStep?: boolean;
  alert(settled: Settled[]): void;
}): LlmSpendHooks & { finish(): Promise<void> } {
  const { counters, organizationId, scopes, month, price, run } = deps;
  let calls = 0;
  let outstanding = 0;
  const microsOf = (usage: { inputTokens: number; cachedInputTokens?: number; outputTokens: number }) =>
    price ? costMicros(usage, price) : 0;

  return {
    async beforeCall(worst) {
      const worstMicros = microsOf(worst);
      const checked = run && (run.onExceeded === 'fail' || (calls === 0 && deps.firstOfStep === true));
      if (checked && run.maxCostMicros !== undefined && run.spentMicros + worstMicros > run.maxCostMicros) {
        const [spent, cap] = [usdOfMicros(run.spentMicros), usdOfMicros(run.maxCostMicros)];
        throw new BudgetExceededError(budgetMessages.run(spent, cap), 'run', spent, cap);
      }
      if (
        checked &&
        run.maxTokens !== undefined &&
        run.tokens + worst.inputTokens + worst.outputTokens > run.maxTokens
      )
        throw new BudgetExceededError(budgetMessages.runTokens(run.tokens, run.maxTokens), 'run', 0, 0);
      const force = calls > 0;
      calls++;
      const { refused } = await counters.reserve(organizationId, scopes, month, worstMicros, force);
      if (refused) {
        // From 80 % on, a refused call means the cap is spent: new runs are refused too, and its
        // 100 % alert goes out (once). Below, only this call was too large for what is left.
        if (refused.spentMicros * 5 >= refused.capMicros * 4) {
          const first = await counters.exhausted(organizationId, refused, month);
          if (first) deps.alert([first]);
        }
        throw capRefusal(refused.scope, refused.spentMicros, refused.capMicros);
      }
      outstanding = worstMicros;
    },

    async afterCall(usage: LlmUsage) {
      const spent = microsOf({
        inputTokens: usage.promptTokens,
        cachedInputTokens: usage.cachedInputTokens,
        outputTokens: usage.completionTokens,
      });
      const reserved = outstanding;
      outstanding = 0;
      if (run) {
        run.spentMicros += spent;
        run.tokens += usage.totalTokens;
      }
      const settled = await counters.settle(organizationId, scopes, month, reserved, spent);
      if (settled.some((s) => s.newAlert > 0)) deps.alert(settled.filter((s) => s.newAlert > 0));
    },

    async finish() {
      if (outstanding === 0) return;
      const reserved = outstanding;
      outstanding = 0;
      await counters.release(organizationId, scopes, month, reserved);
    },
  };
}
