import { z } from 'zod';

/*
 * Where model spend goes and how it is capped (issue 37, docs/product-rules.md, Costs): every model
 * call is kept in the organization's spend ledger with its source; the Costs tab and
 * GET /api/usage/costs add it up; budgets per run, per workflow and per organization stop spending.
 */

/** What made a model call: a run's step, or a call outside any run. */
export const spendSourceValues = [
  'run',
  'agent_test',
  'playground',
  'node_test',
  'knowledge',
  'memory',
  'tool',
  'evaluation',
] as const;
export type SpendSource = (typeof spendSourceValues)[number];

/** The names the Costs tab shows for each source. */
export const spendSourceLabels: Record<SpendSource, string> = {
  run: 'Runs',
  agent_test: 'Agent tests',
  playground: 'Playground',
  node_test: 'Step tests',
  knowledge: 'Knowledge',
  memory: 'Memory',
  tool: 'AI tools',
  evaluation: 'Evaluation graders',
};

/** How GET /api/usage/costs groups its rows. */
export const costGroupingValues = ['day', 'workflow', 'agent', 'model', 'source', 'trigger'] as const;
export type CostGrouping = (typeof costGroupingValues)[number];

/** The longest range the costs report adds up, in days. */
export const COSTS_RANGE_MAX_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

export const spendMessages = {
  badInstant: 'Give from and to as ISO dates (2026-12-01) or date-times (2026-12-01T00:00:00Z)',
  badRange: 'from must be before to',
  rangeTooLong: `A range covers at most ${COSTS_RANGE_MAX_DAYS} days`,
  badGrouping: `groupBy must be one of ${costGroupingValues.join(', ')}`,
} as const;

const instant = z
  .string()
  .refine((value) => /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(value) && !Number.isNaN(Date.parse(value)), {
    message: spendMessages.badInstant,
  });

/**
 * GET /api/usage/costs: the range [from, to) (default: the last 30 days up to now), grouped by one
 * dimension; days are calendar days of `tz` (default UTC).
 */
export const costsQuerySchema = z
  .object({
    from: instant.optional(),
    to: instant.optional(),
    groupBy: z.enum(costGroupingValues, { message: spendMessages.badGrouping }).default('day'),
    tz: z.string().max(64).default('UTC'),
  })
  .superRefine((query, ctx) => {
    const from = query.from ? Date.parse(query.from) : undefined;
    const to = query.to ? Date.parse(query.to) : undefined;
    if (from === undefined || to === undefined) return;
    if (from >= to) ctx.addIssue({ code: 'custom', message: spendMessages.badRange, path: ['from'] });
    else if (to - from > COSTS_RANGE_MAX_DAYS * DAY_MS)
      ctx.addIssue({ code: 'custom', message: spendMessages.rangeTooLong, path: ['from'] });
  });
export type CostsQuery = z.infer<typeof costsQuerySchema>;

/**
 * One group's spend. `costUsd` adds up the calls whose model had a price; `unpricedCalls` counts the
 * others (their cost is unknown, never 0) and `unpricedModels` names their models.
 */
export const costRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  costUsd: z.number(),
  inputTokens: z.number().int(),
  cachedInputTokens: z.number().int(),
  outputTokens: z.number().int(),
  calls: z.number().int(),
  unpricedCalls: z.number().int(),
  unpricedModels: z.array(z.string()),
});
export type CostRow = z.infer<typeof costRowSchema>;

/**
 * USD as the product's messages write it: cents, or four decimals under a cent, rounded half up
 * from whole micro-dollars (so $0.00085 reads $0.0009, as a person rounds it).
 */
export function usdText(usd: number): string {
  const digits = usd !== 0 && Math.abs(usd) < 0.01 ? 4 : 2;
  const step = 10 ** (6 - digits);
  const rounded = (Math.round(Math.round(usd * 1_000_000) / step) * step) / 1_000_000;
  return `$${rounded.toFixed(digits)}`;
}
