import { expect } from 'vitest';
import {
  isRunEnded,
  type Approval,
  type AuthResponse,
  type CreateWorkflowInput,
  type Execution,
  type OrganizationRole,
} from '@crewline/contracts';
import type { TestApp } from './test-app';
import { chainOf } from './workflow-shapes';

/*
 * Set-up through the in-process app's API (`t.request`), as a member of the organization would do
 * it (process-api.ts does the same over HTTP for server processes). Each throws when the API
 * refuses, so a broken set-up fails where it happens.
 */

type Answer = Awaited<ReturnType<TestApp['request']>>;

function expectStatus(res: Answer, status: number, what: string) {
  if (res.statusCode !== status) throw new Error(`${what} answered ${res.statusCode}: ${res.body}`);
}

/** Fails when a response of the file so far carried one of `secrets` (stored secrets are never answered). */
export function expectNeverAnswered(t: TestApp, secrets: string[]) {
  for (const secret of secrets)
    expect(
      t.responseBodies.some((body) => body.includes(secret)),
      secret,
    ).toBe(false);
}

/** Points the organization's OpenAI connection at `baseUrl` (usually the fake model server). */
export async function configureModel(
  t: TestApp,
  token: string,
  baseUrl: string,
  config: Record<string, unknown> = {},
) {
  const res = await t.request({
    method: 'PUT',
    url: '/api/tools/configurations/openai_config',
    token,
    payload: { config: { apiKey: 'sk-test', baseUrl, ...config } },
  });
  expectStatus(res, 200, 'PUT openai_config');
}

export type AgentFields = { name: string } & Record<string, unknown>;

/** An agent whose role is "<name> role", goal "Help" and model gpt-4o unless `fields` say otherwise. */
export async function createAgent(t: TestApp, token: string, fields: AgentFields) {
  const res = await t.request({
    method: 'POST',
    url: '/api/agents',
    token,
    payload: { role: `${fields.name} role`, goal: 'Help', llmModel: 'gpt-4o', ...fields },
  });
  expectStatus(res, 201, 'POST /api/agents');
  return res.json() as { id: string; name: string };
}

/** Scout, the agent the playground suites talk to (chat and the Test action). */
export const SCOUT: AgentFields = {
  name: 'Scout',
  role: 'Market researcher',
  goal: 'Find pricing data',
  llmModel: 'llama-test',
};

/** An active workflow chaining the agents (Start → n1 → n2 → … → End); returns its id. */
export async function createChainWorkflow(
  t: TestApp,
  token: string,
  name: string,
  agentIds: string[],
  fields: Record<string, unknown> = {},
) {
  const res = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token,
    payload: { name, status: 'active', ...fields, ...chainOf(agentIds) },
  });
  expectStatus(res, 201, 'POST /api/workflows');
  return res.json().id as string;
}

/**
 * The usual start of a run test: the organization's model is the fake server at `modelUrl`, and an
 * active workflow named `workflow` chains one new agent per entry of `agents`. Returns its id.
 */
export async function workflowOnFakeModel(
  t: TestApp,
  token: string,
  { modelUrl, workflow, agents }: { modelUrl: string; workflow: string; agents: AgentFields[] },
) {
  await configureModel(t, token, modelUrl);
  const agentIds: string[] = [];
  for (const fields of agents) agentIds.push((await createAgent(t, token, fields)).id);
  return createChainWorkflow(t, token, workflow, agentIds);
}

/** Creates a tool and connects it to the agent (no per-agent settings); returns the tool. */
export async function attachNewTool(
  t: TestApp,
  token: string,
  agentId: string,
  tool: { name: string; category: string; config: Record<string, unknown> },
) {
  const created = await t.request({ method: 'POST', url: '/api/tools', token, payload: tool });
  expectStatus(created, 201, 'POST /api/tools');
  const { id, name } = created.json() as { id: string; name: string };
  const link = await t.request({
    method: 'POST',
    url: `/api/agents/${agentId}/tools/${id}`,
    token,
    payload: { config: {} },
  });
  expectStatus(link, 201, 'POST /api/agents/:id/tools/:toolId');
  return { id, name };
}

/** Polls `GET /api/executions/:id` until the run has ended (completed, failed or cancelled), and returns it. */
export async function waitForRunEnd(
  t: TestApp,
  token: string,
  id: string,
  timeoutMs = 15_000,
): Promise<Execution> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const execution = (
      await t.request({ method: 'GET', url: `/api/executions/${id}`, token })
    ).json() as Execution;
    if (isRunEnded(execution.status)) return execution;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`execution ${id} did not finish`);
}

/**
 * Polls `GET /api/executions/:id` until the run has `status` (a run waiting for an approval or a
 * delay: 'waiting'), and returns it; a run that ended with another status fails at once.
 */
export async function waitForRunStatus(
  t: TestApp,
  token: string,
  id: string,
  status: Execution['status'],
  timeoutMs = 15_000,
): Promise<Execution> {
  let current: Execution | undefined;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    current = (await t.request({ method: 'GET', url: `/api/executions/${id}`, token })).json() as Execution;
    if (current.status === status) return current;
    if (isRunEnded(current.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${id} never became ${status} (is ${current?.status})`);
}

/** The run's approvals with that status (`GET /api/approvals?executionId=`), as `token` reads them. */
export async function approvalsOfRun(
  t: TestApp,
  token: string,
  executionId: string,
  status: 'pending' | 'decided' = 'pending',
): Promise<Approval[]> {
  const res = await t.request({
    method: 'GET',
    url: `/api/approvals?executionId=${executionId}&status=${status}`,
    token,
  });
  expectStatus(res, 200, 'GET /api/approvals');
  return res.json() as Approval[];
}

/** Creates the workflow and starts a run of it with `input`; the run's and the workflow's ids. */
export async function startNewWorkflow(
  t: TestApp,
  token: string,
  workflow: CreateWorkflowInput,
  input: Record<string, unknown> = {},
): Promise<{ id: string; workflowId: string }> {
  const created = await t.request({ method: 'POST', url: '/api/workflows', token, payload: workflow });
  expectStatus(created, 201, 'POST /api/workflows');
  const workflowId = created.json().id as string;
  const started = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token,
    payload: { input },
  });
  expectStatus(started, 202, 'POST /api/workflows/:id/execute');
  return { id: started.json().id as string, workflowId };
}

/** Starts a run of the workflow with `input`, waits for its end, and returns it whole (its steps too). */
export async function runToEnd(
  t: TestApp,
  token: string,
  workflowId: string,
  input: Record<string, unknown> = {},
): Promise<Execution> {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token,
    payload: { input },
  });
  expectStatus(res, 202, 'POST /api/workflows/:id/execute');
  await waitForRunEnd(t, token, res.json().id);
  return (await t.request({ method: 'GET', url: `/api/executions/${res.json().id}`, token })).json();
}

/**
 * Invites `who` into `owner`'s organization with `role`, accepts, and signs `who` in to it: the
 * answer is `who`'s session in that organization.
 */
export async function joinOrganization(
  t: TestApp,
  owner: AuthResponse,
  who: AuthResponse,
  role: OrganizationRole,
): Promise<AuthResponse> {
  const invited = await t.request({
    method: 'POST',
    url: `/api/organizations/${owner.organization.id}/invitations`,
    token: owner.token,
    payload: { email: who.user.email, role },
  });
  expectStatus(invited, 201, 'POST /api/organizations/:orgId/invitations');
  const accepted = await t.request({
    method: 'POST',
    url: `/api/invitations/${invited.json().token}/accept`,
    token: who.token,
    payload: {},
  });
  expectStatus(accepted, 200, 'POST /api/invitations/:token/accept');
  const switched = await t.request({
    method: 'POST',
    url: '/api/auth/switch-organization',
    token: who.token,
    payload: { organizationId: owner.organization.id },
  });
  expectStatus(switched, 200, 'POST /api/auth/switch-organization');
  return switched.json() as AuthResponse;
}
