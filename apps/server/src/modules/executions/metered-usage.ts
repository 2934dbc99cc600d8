import { costMicros, usdOfMicros, type TokenUsage } from '@crewline/contracts';
import type { LlmUsage } from '../../platform/llm';
import type { PriceLookup } from '../costs/prices.columns';

/**
 * A model call's tokens and what they cost at `price` (docs/product-rules.md, Costs): unknown, naming
 * the model, when it has no price; without a price table (tests of steps alone), tokens only.
 */
export function meteredUsage(
  usage: LlmUsage,
  calls: number,
  model: string,
  priceOf: PriceLookup | undefined,
  provider: string,
): TokenUsage {
  const tokens = {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens,
    ...(usage.cachedInputTokens ? { cachedInputTokens: usage.cachedInputTokens } : {}),
    calls,
  };
  if (!priceOf) return tokens;
  const price = priceOf(provider, model);
  if (!price) return { ...tokens, costUsd: null, unpricedModels: [model] };
  const micros = costMicros(
    {
      inputTokens: usage.promptTokens,
      cachedInputTokens: usage.cachedInputTokens,
      outputTokens: usage.completionTokens,
    },
    price,
  );
  return { ...tokens, costUsd: usdOfMicros(micros) };
}
