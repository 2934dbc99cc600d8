import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentExecutions,
  agents,
  agentTools,
  organizations,
  subscriptions,
  tools,
  userOrganizations,
  users,
  workflowExecutions,
  workflows,
} from './schema';
import { createTestDatabase } from './testing/test-database';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

/** The Postgres error code a failed statement ended with (drizzle wraps the driver's error). */
async function errorOf(statement: Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
    return cause ?? (error as { code?: string; constraint?: string });
  }
  throw new Error('the statement succeeded');
}

async function newUser() {
  const tag = randomUUID();
  const [user] = await database.db
    .insert(users)
    .values({ username: `user-${tag}`, email: `${tag}@example.com`, password: 'argon2-hash' })
    .returning();
  return user;
}

async function newOrganization() {
  const [organization] = await database.db
    .insert(organizations)
    .values({ name: 'Acme', slug: `acme-${randomUUID()}` })
    .returning();
  return organization;
}

async function newAgent(organizationId: string, createdBy?: string) {
  const [agent] = await database.db
    .insert(agents)
    .values({ name: 'Researcher', role: 'Researcher', goal: 'Find facts', organizationId, createdBy })
    .returning();
  return agent;
}

async function newTool(organizationId: string) {
  const [tool] = await database.db.insert(tools).values({ name: 'Search', organizationId }).returning();
  return tool;
}

describe('defaults', () => {
  it('give a new agent openai gpt-4o, temperature 70, 2000 tokens, inactive', async () => {
    const organization = await newOrganization();
    const agent = await newAgent(organization.id);
    expect(agent).toMatchObject({
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
      temperature: 70,
      maxTokens: 2000,
      status: 'inactive',
      tools: [],
      config: {},
    });
  });

  it('give a new workflow a sequential, manual draft with no nodes', async () => {
    const organization = await newOrganization();
    const [workflow] = await database.db
      .insert(workflows)
      .values({ name: 'Digest', organizationId: organization.id })
      .returning();
    expect(workflow).toMatchObject({
      processType: 'sequential',
      triggerType: 'manual',
      status: 'draft',
      nodes: [],
      edges: [],
      triggerConfig: {},
    });
  });

  it('start an execution pending, on attempt 0, with empty output and logs', async () => {
    const organization = await newOrganization();
    const [workflow] = await database.db
      .insert(workflows)
      .values({ name: 'Digest', organizationId: organization.id })
      .returning();
    const [execution] = await database.db
      .insert(workflowExecutions)
      .values({ workflowId: workflow.id, organizationId: organization.id })
      .returning();
    expect(execution).toMatchObject({ status: 'pending', attempt: 0, output: {}, logs: [], startedAt: null });
  });

  it('give a new organization empty settings, its subscription the starter plan, a new user the user role', async () => {
    const organization = await newOrganization();
    const [subscription] = await database.db
      .insert(subscriptions)
      .values({ organizationId: organization.id })
      .returning();
    const user = await newUser();
    expect(organization).toMatchObject({ settings: {} });
    expect(subscription).toMatchObject({ plan: 'starter', stripeSubscriptionId: null });
    expect(user.role).toBe('user');
  });

  it('move updatedAt forward on every update', async () => {
    const organization = await newOrganization();
    const agent = await newAgent(organization.id);
    // Dated a minute back first: an update in the same millisecond as the insert could not move it.
    const minuteAgo = new Date(Date.now() - 60_000);
    await database.db.update(agents).set({ updatedAt: minuteAgo }).where(eq(agents.id, agent.id));
    const [updated] = await database.db
      .update(agents)
      .set({ name: 'Analyst' })
      .where(eq(agents.id, agent.id))
      .returning();
    expect(updated.updatedAt.getTime()).toBeGreaterThan(minuteAgo.getTime());
  });
});

describe('enumerations', () => {
  it('reject a status outside the enumeration', async () => {
    const organization = await newOrganization();
    const insert = database.db.insert(agents).values({
      name: 'X',
      role: 'X',
      goal: 'X',
      organizationId: organization.id,
      status: 'sleeping' as never,
    });
    // 22P02: invalid input value for enum agent_status
    expect(await errorOf(insert)).toMatchObject({ code: '22P02' });
  });

  it('reject an unknown provider and process type', async () => {
    const organization = await newOrganization();
    const agent = database.db.insert(agents).values({
      name: 'X',
      role: 'X',
      goal: 'X',
      organizationId: organization.id,
      llmProvider: 'mistral' as never,
    });
    const workflow = database.db
      .insert(workflows)
      .values({ name: 'X', organizationId: organization.id, processType: 'random' as never });
    expect(await errorOf(agent)).toMatchObject({ code: '22P02' });
    expect(await errorOf(workflow)).toMatchObject({ code: '22P02' });
  });
});

describe('uniqueness', () => {
  it('refuse a second user with the same email', async () => {
    const user = await newUser();
    const duplicate = database.db
      .insert(users)
      .values({ username: `other-${randomUUID()}`, email: user.email, password: 'x' });
    expect(await errorOf(duplicate)).toMatchObject({ code: '23505', constraint: 'users_email_unique' });
  });

  it('refuse a second user with the same username', async () => {
    const user = await newUser();
    const duplicate = database.db
      .insert(users)
      .values({ username: user.username, email: `${randomUUID()}@example.com`, password: 'x' });
    expect(await errorOf(duplicate)).toMatchObject({ code: '23505', constraint: 'users_username_unique' });
  });

  it('refuse a second organization with the same slug', async () => {
    const organization = await newOrganization();
    const duplicate = database.db.insert(organizations).values({ name: 'Other', slug: organization.slug });
    expect(await errorOf(duplicate)).toMatchObject({
      code: '23505',
      constraint: 'organizations_slug_unique',
    });
  });

  it('refuse linking the same tool to the same agent twice, but allow it for another agent', async () => {
    const organization = await newOrganization();
    const [agent, other, tool] = [
      await newAgent(organization.id),
      await newAgent(organization.id),
      await newTool(organization.id),
    ];
    await database.db.insert(agentTools).values({ agentId: agent.id, toolId: tool.id });
    const duplicate = database.db.insert(agentTools).values({ agentId: agent.id, toolId: tool.id });
    expect(await errorOf(duplicate)).toMatchObject({
      code: '23505',
      constraint: 'agent_tools_agent_id_tool_id_unique',
    });
    await expect(
      database.db.insert(agentTools).values({ agentId: other.id, toolId: tool.id }),
    ).resolves.toBeDefined();
  });

  it('refuse a second membership of a user in the same organization', async () => {
    const [user, organization] = [await newUser(), await newOrganization()];
    await database.db.insert(userOrganizations).values({ userId: user.id, organizationId: organization.id });
    const duplicate = database.db
      .insert(userOrganizations)
      .values({ userId: user.id, organizationId: organization.id, role: 'admin' });
    expect(await errorOf(duplicate)).toMatchObject({ code: '23505' });
  });
});

describe('deleting', () => {
  it('a user removes their memberships and keeps the organization and the agents they created', async () => {
    const [user, organization] = [await newUser(), await newOrganization()];
    await database.db.insert(userOrganizations).values({ userId: user.id, organizationId: organization.id });
    const agent = await newAgent(organization.id, user.id);
    expect(await database.db.$count(userOrganizations, eq(userOrganizations.userId, user.id))).toBe(1);

    await database.db.delete(users).where(eq(users.id, user.id));

    expect(await database.db.$count(userOrganizations, eq(userOrganizations.userId, user.id))).toBe(0);
    const [kept] = await database.db.select().from(agents).where(eq(agents.id, agent.id));
    expect(kept.createdBy).toBeNull();
    expect(
      await database.db.select().from(organizations).where(eq(organizations.id, organization.id)),
    ).toHaveLength(1);
  });

  it('an organization removes its memberships and its data, and keeps the users', async () => {
    const [user, organization] = [await newUser(), await newOrganization()];
    await database.db.insert(userOrganizations).values({ userId: user.id, organizationId: organization.id });
    const agent = await newAgent(organization.id, user.id);

    await database.db.delete(organizations).where(eq(organizations.id, organization.id));

    expect(
      await database.db.$count(userOrganizations, eq(userOrganizations.organizationId, organization.id)),
    ).toBe(0);
    expect(await database.db.select().from(agents).where(eq(agents.id, agent.id))).toHaveLength(0);
    expect(await database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
  });

  it('a workflow removes its executions and their agent steps', async () => {
    const organization = await newOrganization();
    const agent = await newAgent(organization.id);
    const [workflow] = await database.db
      .insert(workflows)
      .values({ name: 'Digest', organizationId: organization.id })
      .returning();
    const [execution] = await database.db
      .insert(workflowExecutions)
      .values({ workflowId: workflow.id, organizationId: organization.id })
      .returning();
    await database.db.insert(agentExecutions).values([
      { workflowExecutionId: execution.id, agentId: agent.id, nodeId: 'agent-1' },
      { workflowExecutionId: execution.id, agentId: agent.id, nodeId: 'agent-2' },
    ]);

    await database.db.delete(workflows).where(eq(workflows.id, workflow.id));

    const executions = await database.db
      .select()
      .from(workflowExecutions)
      .where(eq(workflowExecutions.workflowId, workflow.id));
    const steps = await database.db
      .select()
      .from(agentExecutions)
      .where(eq(agentExecutions.workflowExecutionId, execution.id));
    expect(executions).toHaveLength(0);
    expect(steps).toHaveLength(0);
    expect(await database.db.select().from(agents).where(eq(agents.id, agent.id))).toHaveLength(1);
  });

  it('an agent removes its tool links and keeps its past steps, without the agent', async () => {
    const organization = await newOrganization();
    const [agent, tool] = [await newAgent(organization.id), await newTool(organization.id)];
    await database.db.insert(agentTools).values({ agentId: agent.id, toolId: tool.id });
    const [workflow] = await database.db
      .insert(workflows)
      .values({ name: 'Digest', organizationId: organization.id })
      .returning();
    const [execution] = await database.db
      .insert(workflowExecutions)
      .values({ workflowId: workflow.id, organizationId: organization.id })
      .returning();
    const [step] = await database.db
      .insert(agentExecutions)
      .values({ workflowExecutionId: execution.id, agentId: agent.id })
      .returning();

    await database.db.delete(agents).where(eq(agents.id, agent.id));

    expect(await database.db.$count(agentTools, eq(agentTools.toolId, tool.id))).toBe(0);
    expect(await database.db.select().from(tools).where(eq(tools.id, tool.id))).toHaveLength(1);
    const [kept] = await database.db.select().from(agentExecutions).where(eq(agentExecutions.id, step.id));
    expect(kept.agentId).toBeNull();
  });

  it('a tool removes its agent links and keeps the agents', async () => {
    const organization = await newOrganization();
    const [agent, tool] = [await newAgent(organization.id), await newTool(organization.id)];
    await database.db.insert(agentTools).values({ agentId: agent.id, toolId: tool.id });

    await database.db.delete(tools).where(eq(tools.id, tool.id));

    expect(await database.db.$count(agentTools, eq(agentTools.agentId, agent.id))).toBe(0);
    expect(await database.db.select().from(agents).where(eq(agents.id, agent.id))).toHaveLength(1);
  });
});
