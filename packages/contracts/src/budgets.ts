import { z } from 'zod';
import { formatNumber } from './format-number';
import { chatMessages } from './chat';
import { usdText } from './spend';

/*
 * Budgets (issue 37, docs/product-rules.md, Costs): a workflow's per-run budget and monthly cap (its
 * `config.budget`), the organization's monthly cap, and the plan's included spend on the server's
 * model keys. Months are calendar months in UTC.
 */

/** The largest budget or cap taken, in USD: a typo's guard. */
const BUDGET_MAX_USD = 1_000_000;
/** The largest token budget of a run. */
const TOKENS_MAX = 1_000_000_000;

export const budgetMessages = {
  amount: 'A budget must be a number of US dollars',
  positive: 'A budget must be more than $0',
  tooLarge: `A budget cannot be over $${formatNumber(BUDGET_MAX_USD)}`,
  tokens: 'A token budget must be a whole number of tokens, at least 1',
  onExceeded: "onExceeded must be 'fail' or 'approval'",
  /** A run stopped by its own budget (the run's error). */
  run: (spentUsd: number, capUsd: number) =>
    `Budget exceeded: this run spent ${usdText(spentUsd)} of its ${usdText(capUsd)} budget`,
  runTokens: (spent: number, cap: number) =>
    `Budget exceeded: this run used ${formatNumber(spent)} tokens of its ${formatNumber(cap)}-token budget`,
  workflow: (spentUsd: number, capUsd: number) =>
    `Budget exceeded: this workflow spent ${usdText(spentUsd)} of its ${usdText(capUsd)} monthly budget. Raise its monthly cap in the workflow's settings, or wait for next month.`,
  organization: (spentUsd: number, capUsd: number) =>
    `Budget exceeded: your organization spent ${usdText(spentUsd)} of its ${usdText(capUsd)} monthly budget. An owner or admin can raise it in Settings → Costs.`,
  plan: (spentUsd: number, capUsd: number) =>
    `Budget exceeded: your plan's ${usdText(capUsd)} of model use on Crewline's keys this month is spent (${usdText(spentUsd)}). Add your own API key in Settings → Tools, or upgrade your plan.`,
  /** A chat app's monthly cap: its visitors see it, so it names no amount (chat.ts). */
  chat: (_spentUsd: number, _capUsd: number) => chatMessages.capReached,
} as const;

const usdAmount = z
  .number({ error: budgetMessages.amount })
  .positive({ message: budgetMessages.positive })
  .max(BUDGET_MAX_USD, { message: budgetMessages.tooLarge });

/** What a run does when it reaches its budget: fail, or wait for a person to raise it. */
export const budgetOnExceededValues = ['fail', 'approval'] as const;

/** A workflow's `config.budget`. Each part is optional; none set means no budget. */
export const workflowBudgetSchema = z.object({
  /** The most one run may spend on model calls. */
  maxCostPerRunUsd: usdAmount.optional(),
  /** The most tokens one run may use. */
  maxTokensPerRun: z
    .number({ error: budgetMessages.tokens })
    .int({ message: budgetMessages.tokens })
    .min(1, { message: budgetMessages.tokens })
    .max(TOKENS_MAX, { message: budgetMessages.tokens })
    .optional(),
  /** The most the workflow's runs may spend together in a calendar month (UTC). */
  monthlyCapUsd: usdAmount.optional(),
  /** Past its per-run budget, a run fails (default) or waits for approval to go on. */
  onExceeded: z.enum(budgetOnExceededValues, { message: budgetMessages.onExceeded }).optional(),
});
export type WorkflowBudget = z.infer<typeof workflowBudgetSchema>;

/**
 * Where spending stopped: a run's budget, a workflow's, a chat app's (its runs with trigger `chat`) or
 * the organization's monthly cap, or the plan's included spend.
 */
export const budgetScopeValues = ['run', 'workflow', 'chat', 'organization', 'plan'] as const;
export type BudgetScope = (typeof budgetScopeValues)[number];

/** The 402 answered when a cap refuses a run or a model call. */
export const budgetExceededSchema = z.object({
  message: z.string(),
  code: z.literal('budget_exceeded'),
  scope: z.enum(budgetScopeValues),
  spentUsd: z.number(),
  capUsd: z.number(),
});
export type BudgetExceeded = z.infer<typeof budgetExceededSchema>;

/** How far the month's spend is into a cap: under 80 %, from 80 %, or at 100 %. */
export const budgetStateValues = ['ok', 'warning', 'exceeded'] as const;
export type BudgetState = (typeof budgetStateValues)[number];

/** GET /api/organization/budget: the organization's monthly cap and this month's spend. */
export const organizationBudgetSchema = z.object({
  /** The calendar month (UTC) the figures are of, YYYY-MM. */
  month: z.string(),
  monthlyCapUsd: z.number().nullable(),
  spentThisMonthUsd: z.number(),
  state: z.enum(budgetStateValues),
  /** Model spend on the server's keys the plan includes this month (null: the server has no key), and what is spent of it. */
  includedSpend: z.object({
    capUsd: z.number().nullable(),
    spentUsd: z.number(),
    state: z.enum(budgetStateValues),
  }),
});
export type OrganizationBudget = z.infer<typeof organizationBudgetSchema>;

/** PUT /api/organization/budget (owners and admins): a monthly cap in USD, or null for none. */
export const updateOrganizationBudgetSchema = z.object({
  monthlyCapUsd: usdAmount.nullable(),
});
export type UpdateOrganizationBudget = z.infer<typeof updateOrganizationBudgetSchema>;

/** The share of a cap at which an alert goes out before the cap is reached. */
export const BUDGET_WARNING_SHARE = 0.8;

/** Where `spent` stands against `cap`. */
export function budgetState(spentUsd: number, capUsd: number | null): BudgetState {
  if (capUsd === null) return 'ok';
  if (spentUsd >= capUsd) return 'exceeded';
  return spentUsd >= capUsd * BUDGET_WARNING_SHARE ? 'warning' : 'ok';
}
