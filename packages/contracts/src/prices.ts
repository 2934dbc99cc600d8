import { z } from 'zod';
import { llmProviderValues } from './vocabulary/providers';

/*
 * What model calls cost (issue 37, docs/product-rules.md, Costs): a built-in table of list prices in
 * USD for the models Crewline offers, which owners and admins override or extend per organization,
 * and the arithmetic that turns a call's reported usage into money. Amounts are kept in whole
 * micro-dollars (10⁻⁶ USD) so sums are exact; answers show them as USD numbers.
 */

/** One model's prices, USD per million tokens. Embedding models price their input only. */
export const modelPriceSchema = z.object({
  provider: z.enum(llmProviderValues),
  model: z.string(),
  inputPerMillion: z.number(),
  /** Input the provider served from its prompt cache; the input price when it has no discount. */
  cachedInputPerMillion: z.number(),
  outputPerMillion: z.number(),
  /** The day the built-in price was checked against the provider's list, or an override was set (YYYY-MM-DD). */
  checkedAt: z.string(),
  source: z.enum(['builtin', 'organization']),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** The most a price may say (USD per million tokens): beyond any model sold today, a typo's guard. */
const PRICE_MAX = 10_000;
const priceNumber = z
  .number({ error: 'A price must be a number of US dollars per million tokens' })
  .min(0, { message: 'A price cannot be negative' })
  .max(PRICE_MAX, { message: `A price cannot be over $${PRICE_MAX} per million tokens` });

/**
 * The most prices an organization sets of its own: every run's claim reads them all, so the list
 * stays short (more models than any organization runs).
 */
export const OWN_PRICES_MAX = 200;

export const pricesMessages = {
  noOwnPrice: 'This model has no price of your organization',
  tooMany: `At most ${OWN_PRICES_MAX} prices of your own: remove one you no longer use first`,
} as const;

/** PUT /api/prices: an organization's price for one model (a new one, or over the built-in one). */
export const setModelPriceSchema = z.object({
  provider: z.enum(llmProviderValues, { error: 'Choose a provider: openai, anthropic, local or custom' }),
  model: z
    .string({ error: 'Name the model' })
    .trim()
    .min(1, { message: 'Name the model' })
    .max(200, { message: 'A model name has at most 200 characters' }),
  inputPerMillion: priceNumber,
  cachedInputPerMillion: priceNumber.optional(),
  outputPerMillion: priceNumber,
});
export type SetModelPrice = z.infer<typeof setModelPriceSchema>;

type BuiltInPrice = Omit<ModelPrice, 'source'>;

/**
 * The list prices of the models Crewline offers, as the providers publish them (standard tier, no
 * batch discount). Each row says when it was checked; an organization's own price wins over it.
 */
export const builtInPrices: readonly BuiltInPrice[] = [
  {
    provider: 'openai',
    model: 'gpt-4o',
    inputPerMillion: 2.5,
    cachedInputPerMillion: 1.25,
    outputPerMillion: 10,
    checkedAt: '2026-12-02',
  },
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    inputPerMillion: 0.15,
    cachedInputPerMillion: 0.075,
    outputPerMillion: 0.6,
    checkedAt: '2026-12-02',
  },
  {
    provider: 'openai',
    model: 'gpt-3.5-turbo',
    inputPerMillion: 0.5,
    cachedInputPerMillion: 0.5,
    outputPerMillion: 1.5,
    checkedAt: '2026-12-02',
  },
  {
    provider: 'openai',
    model: 'text-embedding-3-small',
    inputPerMillion: 0.02,
    cachedInputPerMillion: 0.02,
    outputPerMillion: 0,
    checkedAt: '2026-12-02',
  },
  {
    provider: 'openai',
    model: 'text-embedding-3-large',
    inputPerMillion: 0.13,
    cachedInputPerMillion: 0.13,
    outputPerMillion: 0,
    checkedAt: '2026-12-02',
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    inputPerMillion: 3,
    cachedInputPerMillion: 0.3,
    outputPerMillion: 15,
    checkedAt: '2026-12-02',
  },
  {
    provider: 'anthropic',
    model: 'claude-opus-4-1',
    inputPerMillion: 15,
    cachedInputPerMillion: 1.5,
    outputPerMillion: 75,
    checkedAt: '2026-12-02',
  },
  {
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    inputPerMillion: 1,
    cachedInputPerMillion: 0.1,
    outputPerMillion: 5,
    checkedAt: '2026-12-02',
  },
];

/** A call's usage as providers report it: input includes cached input (which is priced apart). */
export type MeteredUsage = { inputTokens: number; cachedInputTokens?: number; outputTokens: number };

/** Micro-dollars (10⁻⁶ USD) per million tokens at `perMillion` USD: the price of one token in 10⁻¹² USD. */
const MICROS_PER_USD = 1_000_000;

/**
 * What a call cost, in whole micro-dollars, at `price` (rounded once, half up, from the exact sum):
 * uncached input, cached input and output each at their price.
 */
export function costMicros(
  usage: MeteredUsage,
  price: Pick<ModelPrice, 'inputPerMillion' | 'cachedInputPerMillion' | 'outputPerMillion'>,
): number {
  const cached = Math.min(Math.max(0, usage.cachedInputTokens ?? 0), usage.inputTokens);
  // USD per million tokens × tokens = micro-dollars: the product is the exact count of them.
  const exact =
    (usage.inputTokens - cached) * price.inputPerMillion +
    cached * price.cachedInputPerMillion +
    usage.outputTokens * price.outputPerMillion;
  // Prices have few decimals; rounding the float's noise (1e-9) first keeps x.5 exact before the half-up round.
  return Math.round(Math.round(exact * 1000) / 1000);
}

/** Micro-dollars as a USD number (exact for any sum below 2⁵³ micro-dollars). */
export const usdOfMicros = (micros: number): number => micros / MICROS_PER_USD;

/** The micro-dollars of a USD amount (a budget, a cap), rounded to the nearest. */
export const microsOfUsd = (usd: number): number => Math.round(usd * MICROS_PER_USD);

/** The part of a step's or run's usage that says what it cost. */
export type CostFigures = { costUsd?: number | null; unpricedModels?: string[] };

/**
 * Two costs together, exactly (summed as micro-dollars): unknown when either is, absent when both
 * are, and the unpriced models of both.
 */
export function addCosts(a: CostFigures, b: CostFigures): CostFigures {
  const unpriced = [...new Set([...(a.unpricedModels ?? []), ...(b.unpricedModels ?? [])])];
  const costUsd =
    a.costUsd === undefined && b.costUsd === undefined
      ? undefined
      : a.costUsd === null || b.costUsd === null
        ? null
        : usdOfMicros(microsOfUsd(a.costUsd ?? 0) + microsOfUsd(b.costUsd ?? 0));
  return {
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(unpriced.length > 0 ? { unpricedModels: unpriced } : {}),
  };
}

/** What steps cost together (`addCosts` over their usage): absent when none says. */
export const costOfSteps = (steps: { usage: CostFigures }[]): CostFigures =>
  steps.reduce<CostFigures>((total, step) => addCosts(total, step.usage), {});
