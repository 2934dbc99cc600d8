import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  budgetMessages,
  INCLUDED_MODEL_SPEND_USD,
  type AgentTestResult,
  type AuthResponse,
  type OrganizationBudget,
} from '@crewline/contracts';
import type { LlmGateway, LlmRequest } from '../../platform/llm';
import { createAgent } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * The plan's included spend on the server's own model keys (docs/product-rules.md, Costs): an
 * organization without a key of its own uses the operator's, up to its plan's monthly amount (or the
 * operator's amount for it), then its calls are refused with 402 `scope: 'plan'` naming what to do.
 * The server's key only ever goes to the provider's official URL, so the model here is a gateway that
 * answers in its place and records the connection it was given.
 */

const asked: LlmRequest[] = [];
const gateway: LlmGateway = {
  async generate(request) {
    asked.push(request);
    // What the SDK's tool loop would report for one call: 1,000 tokens in, 500 out.
    await request.spend?.beforeCall({ inputTokens: 1000, outputTokens: request.maxTokens });
    const usage = { promptTokens: 1000, completionTokens: 500, totalTokens: 1500 };
    await request.spend?.afterCall(usage);
    return { text: 'Hello.', usage, steps: [], model: request.model, finishReason: 'stop', durationMs: 1 };
  },
  listModels: async () => [],
  embed: async () => ({ embeddings: [], tokens: 0 }),
  moderate: () => Promise.reject(new Error('not used')),
};

let t: TestApp, ada: AuthResponse;
beforeAll(async () => {
  t = await createTestApp({
    llm: gateway,
    config: { providerKeys: { openai: 'sk-operator', anthropic: undefined } },
  });
  ada = await t.signup();
});
afterAll(() => t?.close());

const budget = async () =>
  (
    await t.request({ method: 'GET', url: '/api/organization/budget', token: ada.token })
  ).json() as OrganizationBudget;

const test = (agentId: string) =>
  t.request({
    method: 'POST',
    url: `/api/agents/${agentId}/test`,
    token: ada.token,
    payload: { input: 'Hi' },
  });

describe('the plan’s included spend on the server’s keys', () => {
  it('counts calls on the server’s key and refuses them with 402 once the month’s amount is spent', async () => {
    // A new organization is on its plan's trial: its included amount, all of it left.
    expect((await budget()).includedSpend).toEqual({
      capUsd: INCLUDED_MODEL_SPEND_USD.professional,
      spentUsd: 0,
      state: 'ok',
    });
    const agent = await createAgent(t, ada.token, {
      name: 'On the operator',
      llmModel: 'gpt-4o',
      maxTokens: 100,
    });
    const first = await test(agent.id);
    expect((first.json() as AgentTestResult).success).toBe(true);
    expect(asked.at(-1)!.connection).toMatchObject({ apiKey: 'sk-operator', serverKey: true });
    // 1,000 input and 500 output tokens of gpt-4o: $0.0025 + $0.005.
    expect((await budget()).includedSpend).toMatchObject({ spentUsd: 0.0075, state: 'ok' });

    // The operator's amount for this organization: just over what it spent, less than a call's worst case.
    await t.db.execute(sql`insert into organization_budgets (organization_id, included_spend_micros)
      values (${ada.organization.id}, 8000)`);
    const refused = await test(agent.id);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      message: budgetMessages.plan(0.0075, 0.008),
      code: 'budget_exceeded',
      scope: 'plan',
      spentUsd: 0.0075,
      capUsd: 0.008,
    });
    expect(refused.json().message).toContain('Add your own API key in Settings → Tools');
    expect((await budget()).includedSpend).toMatchObject({ capUsd: 0.008, state: 'exceeded' });
    expect(asked).toHaveLength(2);
  });
});
