import { costMicros } from '@crewline/contracts';
import type { Logger } from 'pino';
import type { LlmConnection, LlmGateway, LlmMeter, LlmUsage } from '../../platform/llm';
import { metrics } from '../../platform/metrics/metrics';
import { budgetHooks } from './budget-guard';
import type { BudgetScopes } from './budget-scopes';
import type { BudgetsRepository } from './budgets.repository';
import type { PriceLookup } from './prices.columns';
import type { PricesService } from './prices.service';
import type { SpendCountersRepository } from './spend-counters.repository';
import type { SpendLedgerRepository } from './spend-ledger.repository';

/**
 * The gateway every module calls models through (app.ts wraps the one LLM gateway in it): a request
 * that carries a `meter` (a call outside a run's steps: agent tests, the playground, knowledge and
 * memory embeddings, AI tools) answers to the organization's caps (refused with a 402
 * BudgetExceededError once one is spent) and is kept in the spend ledger with its source once it
 * answered. Requests without one (a run's steps, metered by the run) pass as they are.
 */
export function createMeteredGateway(deps: {
  ledger: Pick<SpendLedgerRepository, 'record'>;
  budgets: Pick<BudgetsRepository, 'read'>;
  counters: SpendCountersRepository;
  prices: Pick<PricesService, 'priceTable'>;
  scopes: BudgetScopes;
  logger?: Logger;
}) {
  const { counters, scopes: caps } = deps;

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
      metrics.modelSpend({
        provider: connection.provider,
        ...usage,
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

  return function metered(llm: LlmGateway): LlmGateway {
    /** The call's price table and budget hooks (none when no cap applies). */
    async function guard(meter: LlmMeter, connection: LlmConnection, model: string) {
      const { organizationId } = meter;
      const [priceOf, stored] = await Promise.all([
        deps.prices.priceTable(organizationId),
        deps.budgets.read(organizationId),
      ]);
      const scopes = await caps.scopesOf(stored, connection.serverKey === true, () =>
        caps.includedSpendMicros(organizationId, stored.includedSpendMicros),
      );
      const hooks =
        scopes.length > 0
          ? budgetHooks({
              counters,
              organizationId,
              scopes,
              month: caps.month(),
              price: priceOf(connection.provider, model),
              alert: caps.alert(organizationId),
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
        await record(request.meter, request.connection, priceOf, result.model, tokensOf(result.usage), calls);
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
  };
}
