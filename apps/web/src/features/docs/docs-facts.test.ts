import {
  API_ACCESS_PLANS,
  API_KEY_PREFIX as CONTRACT_API_KEY_PREFIX,
  apiKeyMessages,
  executionStatusValues,
  FREE_LIMITS,
  PLAN_LIMITS,
  PLAN_PRICE_CENTS,
  planDisplayNames,
  planIdValues,
  TRIAL_DAYS as CONTRACT_TRIAL_DAYS,
  toolCategoryLabels,
  toolCategoryValues,
  WEBHOOK_SECRET_HEADER as CONTRACT_WEBHOOK_SECRET_HEADER,
  WEBHOOK_SIGNATURE_HEADER as CONTRACT_WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER as CONTRACT_WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_WAIT_SECONDS as CONTRACT_WEBHOOK_WAIT_SECONDS,
  webhookMessages,
} from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  DOCS_FREE_LIMITS,
  DOCS_PLANS,
  EXECUTION_STATUSES,
  TOOL_CATEGORIES,
  TRIAL_DAYS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_WAIT_SECONDS,
} from './docs-facts';

// The documentation quotes these without importing the contracts (see docs-facts.ts).
describe('docs facts match the product', () => {
  it('plans: names, prices, limits and API access', () => {
    expect(DOCS_PLANS.map((p) => p.id)).toEqual([...planIdValues]);
    for (const plan of DOCS_PLANS) {
      expect(plan.name).toBe(planDisplayNames[plan.id]);
      expect(plan.price * 100).toBe(PLAN_PRICE_CENTS[plan.id]);
      expect({
        agents: plan.agents,
        executionsPerMonth: plan.executionsPerMonth,
        members: plan.members,
        knowledgeStorageBytes: plan.knowledgeStorageBytes,
      }).toEqual(PLAN_LIMITS[plan.id]);
      expect(plan.apiAccess, plan.id).toBe(API_ACCESS_PLANS.includes(plan.id));
    }
    expect(DOCS_FREE_LIMITS).toEqual(FREE_LIMITS);
    expect(TRIAL_DAYS).toBe(CONTRACT_TRIAL_DAYS);
  });

  it('execution statuses and tool categories', () => {
    expect(EXECUTION_STATUSES).toEqual(executionStatusValues);
    expect(TOOL_CATEGORIES.map((c) => c.id).sort()).toEqual([...toolCategoryValues].sort());
    for (const category of TOOL_CATEGORIES) expect(category.label).toBe(toolCategoryLabels[category.id]);
  });

  it('webhook and API key texts', () => {
    expect(WEBHOOK_SECRET_HEADER).toBe(CONTRACT_WEBHOOK_SECRET_HEADER);
    expect(WEBHOOK_TIMESTAMP_HEADER).toBe(CONTRACT_WEBHOOK_TIMESTAMP_HEADER);
    expect(WEBHOOK_SIGNATURE_HEADER).toBe(CONTRACT_WEBHOOK_SIGNATURE_HEADER);
    expect(WEBHOOK_WAIT_SECONDS).toBe(CONTRACT_WEBHOOK_WAIT_SECONDS);
    expect(WEBHOOK_MESSAGES.notFound).toBe(webhookMessages.notFound);
    expect(WEBHOOK_MESSAGES.badSecret).toBe(webhookMessages.badSecret);
    expect(WEBHOOK_MESSAGES.notActive).toBe(webhookMessages.notActive);
    expect(API_KEY_PREFIX).toBe(CONTRACT_API_KEY_PREFIX);
    expect(API_KEY_MESSAGES.invalid).toBe(apiKeyMessages.invalid);
    expect(API_KEY_MESSAGES.sessionOnly).toBe(apiKeyMessages.sessionOnly);
  });
});
