import { guardrailCheckLabels, type TokenUsage } from '@crewline/contracts';
import type { GuardAnswer, GuardCall } from '@crewline/engine';
import type { LlmProvider, LlmResult, LlmSpendHooks, ModerationScores } from '../../platform/llm';
import type { PriceLookup } from '../costs/prices.columns';
import type { RunSpend } from '../costs/run-budgets.service';
import type { ClassifierRequest, GuardrailsService } from '../guardrails/guardrails.service';
import { meteredUsage } from './metered-usage';
import type { RunLog } from './run-log';

/** How a run (or a test of a step) reaches the guardrails' models. */
export type GuardModels = {
  /** One classifier call, without tools, on the connection of its provider. */
  askModel(
    request: ClassifierRequest,
    options: { signal?: AbortSignal; spend?: LlmSpendHooks },
  ): Promise<LlmResult>;
  /** OpenAI's moderation endpoint on the OpenAI connection. */
  moderate(input: string, signal?: AbortSignal): Promise<ModerationScores>;
};

/**
 * What a guardrail found, for the run's log: each check's kinds and counts and what was done, never
 * the text ('Screen: PII email ×2 (redact); Secrets openai_api_key (block)').
 */
function findingsLine(name: string, answer: Pick<GuardAnswer, 'passed' | 'findings'>): string {
  if (answer.findings.length === 0) return `${name} passed: nothing found`;
  const counts = new Map<string, number>();
  for (const f of answer.findings) {
    const key = `${guardrailCheckLabels[f.check]} ${f.kind} (${f.action})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const found = [...counts].map(([key, n]) => (n > 1 ? key.replace(' (', ` ×${n} (`) : key)).join('; ');
  return `${name} ${answer.passed ? 'passed' : 'blocked'}: ${found}`;
}

/**
 * The guardrails of one run's attempt (or one step's test): the engine's `guard` port. Each
 * classifier call is metered at the run's prices and made within its budgets; the findings are
 * logged by kind (never the values found).
 */
export function createGuardStep(deps: {
  guardrails: Pick<GuardrailsService, 'check'>;
  models: GuardModels;
  priceOf?: PriceLookup;
  runSpend?: RunSpend;
  serverKey?: (provider: LlmProvider) => boolean;
  runLog?: RunLog;
  signal?: AbortSignal;
  nameOf(baseNodeId: string): string;
}) {
  const { models, signal } = deps;
  return async function guard(call: GuardCall): Promise<GuardAnswer> {
    const calls = {
      model: call.model,
      async ask(request: ClassifierRequest): Promise<{ data: unknown; usage: TokenUsage }> {
        const hooks = await deps.runSpend?.hooks(
          request.provider,
          request.model,
          deps.serverKey?.(request.provider) ?? false,
          false,
        );
        try {
          const result = await models.askModel(request, { signal, spend: hooks });
          const usage = meteredUsage(
            result.usage,
            1,
            result.model ?? request.model,
            deps.priceOf,
            request.provider,
          );
          return { data: result.data, usage };
        } finally {
          await hooks?.finish();
        }
      },
      moderate: (text: string) => models.moderate(text, signal),
    };
    const answer = await deps.guardrails.check({
      text: call.text,
      checks: call.checks,
      holds: call.holds,
      calls,
    });
    deps.runLog?.add(
      answer.passed ? 'info' : 'warn',
      findingsLine(deps.nameOf(call.step.baseNodeId), answer),
      call.step.nodeId,
    );
    return answer;
  };
}
