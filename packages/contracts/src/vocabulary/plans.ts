// The plans (docs/product-rules.md, Billing and plans): ids, the names users read, monthly prices and
// limits. The zod schemas of billing.ts build on these; the web reads them without zod.

export const planIdValues = ['starter', 'professional', 'enterprise'] as const;
export type PlanId = (typeof planIdValues)[number];

/** Monthly price per organization, in cents. */
export const PLAN_PRICE_CENTS: Record<PlanId, number> = {
  starter: 1900,
  professional: 4900,
  enterprise: 14900,
};

/** The names users read ('Free' for the tier without a trial or subscription). */
export const planDisplayNames: Record<PlanId | 'free', string> = {
  starter: 'Starter',
  professional: 'Professional',
  enterprise: 'Enterprise',
  free: 'Free',
};

/** Days of the free trial on every plan. */
export const TRIAL_DAYS = 14;

/**
 * What an organization may hold; null is unlimited. `knowledgeStorageBytes`: its knowledge bases'
 * documents, each counted as the larger of its upload and its extracted text (modules/knowledge).
 * `mapItems`: the longest list a workflow's map takes (a run reaching a longer one fails that map),
 * as the plan was when the run started. `concurrentRuns`: the organization's runs in progress at once
 * (more wait in the queue, and the workers share out fairly between organizations); an Enterprise
 * organization's may be set apart by the operator (subscriptions.concurrent_runs).
 */
export type PlanLimits = {
  agents: number | null;
  executionsPerMonth: number | null;
  members: number | null;
  knowledgeStorageBytes: number | null;
  mapItems: number;
  concurrentRuns: number;
};

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** The tier an organization falls to without a trial or subscription (status no_subscription). */
export const FREE_LIMITS: PlanLimits = {
  agents: 3,
  executionsPerMonth: 100,
  members: 1,
  knowledgeStorageBytes: 50 * MiB,
  mapItems: 100,
  concurrentRuns: 2,
};

export const PLAN_LIMITS: Record<PlanId, PlanLimits> = {
  starter: {
    agents: 5,
    executionsPerMonth: 1000,
    members: 3,
    knowledgeStorageBytes: GiB,
    mapItems: 1000,
    concurrentRuns: 5,
  },
  professional: {
    agents: null,
    executionsPerMonth: 10_000,
    members: 15,
    knowledgeStorageBytes: 10 * GiB,
    mapItems: 1000,
    concurrentRuns: 20,
  },
  enterprise: {
    agents: null,
    executionsPerMonth: null,
    members: null,
    knowledgeStorageBytes: null,
    mapItems: 10_000,
    concurrentRuns: 50,
  },
};

/**
 * Model spend on the server's own keys (OPENAI_API_KEY, ANTHROPIC_API_KEY) included each calendar
 * month (UTC), in USD, by plan ('free' for the tier without a trial or subscription): past it, the
 * organization brings its own key. An operator sets another amount for one organization (an
 * Enterprise agreement) in its `organization_budgets` row.
 */
export const INCLUDED_MODEL_SPEND_USD: Record<PlanId | 'free', number> = {
  free: 1,
  starter: 10,
  professional: 50,
  enterprise: 200,
};

/** The plans whose organizations may use API keys (during any trial too). */
export const API_ACCESS_PLANS: readonly PlanId[] = ['professional', 'enterprise'];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (planIdValues as readonly string[]).includes(value);
}
