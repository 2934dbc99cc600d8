import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import {
  PLAN_LIMITS,
  billingMessages,
  type AuthResponse,
  type TemplatesResponse,
  type WorkflowTemplate,
} from '@crewline/contracts';
import { agents, workflows, workflowTemplates } from '@crewline/db';
import { createAgent } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * A template copy makes its agents and its workflow in one transaction, checked under the
 * organization's lock like a plain agent create (docs/decisions/0023-plan-limits-under-lock.md): the
 * plan's agent limit holds, and a refused copy leaves nothing behind.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const starterAgents = PLAN_LIMITS.starter.agents!;
const refusal = {
  message: billingMessages.agentLimit('Starter', starterAgents),
  code: 'plan_limit',
  limit: 'agents',
  plan: 'starter',
};

const tally = (answers: { statusCode: number }[]) =>
  answers.reduce<Record<number, number>>(
    (counts, { statusCode }) => ({ ...counts, [statusCode]: (counts[statusCode] ?? 0) + 1 }),
    {},
  );

async function library(who: AuthResponse): Promise<WorkflowTemplate[]> {
  const res = await t.request({ method: 'GET', url: '/api/templates', token: who.token });
  expect(res.statusCode).toBe(200);
  return (res.json() as TemplatesResponse).workflows.filter((w) => !w.isOwn);
}

const copy = (who: AuthResponse, template: WorkflowTemplate) =>
  t.request({
    method: 'POST',
    url: `/api/templates/${template.id}/create`,
    token: who.token,
    payload: { name: `${template.name} (Copy)` },
  });

async function counts(organizationId: string) {
  const [a] = await t.db.select({ n: count() }).from(agents).where(eq(agents.organizationId, organizationId));
  const [w] = await t.db
    .select({ n: count() })
    .from(workflows)
    .where(eq(workflows.organizationId, organizationId));
  return { agents: a.n, workflows: w.n };
}

async function usageOf(templateId: string) {
  const [row] = await t.db
    .select({ n: workflowTemplates.usageCount })
    .from(workflowTemplates)
    .where(eq(workflowTemplates.id, templateId));
  return row.n;
}

describe('copying a workflow template on a limited plan', () => {
  it('a Starter organization with 3 agents copying a 3-agent template gets 402 and nothing is made', async () => {
    const who = await t.signup({ plan: 'starter' });
    for (let i = 0; i < 3; i++) await createAgent(t, who.token, { name: `Agent ${i}` });
    const template = (await library(who)).find((w) => w.agents.length === 3)!;
    const usesBefore = await usageOf(template.id);

    const res = await copy(who, template);

    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual(refusal);
    expect(await counts(who.organization.id)).toEqual({ agents: 3, workflows: 0 });
    expect(await usageOf(template.id)).toBe(usesBefore);
  });

  it('concurrent copies of different templates and plain creates never pass the limit, nor half-make a copy', async () => {
    const who = await t.signup({ plan: 'starter' });
    const pairs = (await library(who)).filter((w) => w.agents.length === 2).slice(0, 4);
    expect(pairs).toHaveLength(4);

    const copies = pairs.map((template) => copy(who, template));
    const creates = [0, 1].map((i) =>
      t.request({
        method: 'POST',
        url: '/api/agents',
        token: who.token,
        payload: { name: `Plain ${i}`, role: 'Helper', goal: 'Help', llmModel: 'gpt-4o' },
      }),
    );
    const copied = await Promise.all(copies);
    const created = await Promise.all(creates);

    for (const res of [...copied, ...created].filter((r) => r.statusCode !== 201)) {
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual(refusal);
    }
    const madeCopies = tally(copied)[201] ?? 0;
    const madeAgents = tally(created)[201] ?? 0;
    // Every accepted copy has its 2 agents and its workflow; a refused one left none of either.
    expect(await counts(who.organization.id)).toEqual({
      agents: 2 * madeCopies + madeAgents,
      workflows: madeCopies,
    });
    expect(2 * madeCopies + madeAgents).toBeLessThanOrEqual(starterAgents);
    // At most one more agent would have fitted: the burst stopped at the limit.
    expect(2 * madeCopies + madeAgents).toBeGreaterThanOrEqual(starterAgents - 1);
  });

  it('concurrent copies of the same template reuse the agents the first one made', async () => {
    const who = await t.signup({ plan: 'starter' });
    const template = (await library(who)).find((w) => w.agents.length === 3)!;

    const answers = await Promise.all([0, 1, 2].map(() => copy(who, template)));

    expect(tally(answers)).toEqual({ 201: 3 });
    expect(await counts(who.organization.id)).toEqual({ agents: 3, workflows: 3 });
    const agentSets = answers.map((res) =>
      (res.json() as { agents: { id: string }[] }).agents.map((a) => a.id).sort(),
    );
    expect(agentSets[1]).toEqual(agentSets[0]);
    expect(agentSets[2]).toEqual(agentSets[0]);
  });
});
