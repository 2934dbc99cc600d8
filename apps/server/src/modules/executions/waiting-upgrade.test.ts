import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, CreateWorkflowInput, Execution } from '@crewline/contracts';
import { configureModel, createAgent, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { delayedSendOf, refundApprovalOf } from '../../testing/workflow-shapes';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * A run that waits across an upgrade resumes under the new code (docs/product-rules.md, People in the
 * loop): its rows are written here with SQL as an older Crewline stored them, the stored wait a `v: 1`
 * object written out in JSON (never built with the current types), and the current worker resumes it
 * when the approval is decided, or when the delay's time has passed.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
const agents: Record<string, string> = {};
const day = 24 * 3600 * 1000;

async function workflow(payload: CreateWorkflowInput): Promise<string> {
  const created = await t.request({ method: 'POST', url: '/api/workflows', token: ada.token, payload });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

/** A run of version 1 of the workflow, stored `waiting` with `waiting` and `wakeAt`, and its finished steps. */
async function insertWaitingRun(
  workflowId: string,
  waiting: Record<string, unknown>,
  wakeAt: Date | null,
  steps: { nodeId: string; agentId: string | null; kind: string; output: Record<string, unknown> }[],
) {
  const id = randomUUID();
  const output = Object.fromEntries(steps.map((s) => [s.nodeId, s.output]));
  await t.database.pool.query(
    `insert into workflow_executions
       (id, workflow_id, organization_id, status, workflow_version, input, output, logs, attempt,
        started_at, triggered_by, trigger, waiting, wake_at)
     values ($1, $2, $3, 'waiting', 1, $4, $5, $6, 1, $7, $8, 'manual', $9, $10)`,
    [
      id,
      workflowId,
      ada.organization.id,
      JSON.stringify({ amount: 120, customer: 'Acme' }),
      JSON.stringify(output),
      JSON.stringify([
        { at: new Date(Date.now() - 2 * day).toISOString(), level: 'info', message: 'Run started' },
      ]),
      new Date(Date.now() - 2 * day),
      ada.user.id,
      JSON.stringify(waiting),
      wakeAt,
    ],
  );
  for (const step of steps)
    await t.database.pool.query(
      `insert into agent_executions
         (workflow_execution_id, agent_id, node_id, base_node_id, kind, status, input, output, metrics, logs,
          started_at, completed_at)
       values ($1, $2, $3, $3, $4, 'completed', '{}', $5, $6, '[]', $7, $7)`,
      [
        id,
        step.agentId,
        step.nodeId,
        step.kind,
        JSON.stringify(step.output),
        JSON.stringify({
          executionTime: step.output.executionTime,
          promptTokens: 10,
          completionTokens: 5,
          totalTokens: 15,
        }),
        new Date(Date.now() - 2 * day),
      ],
    );
  return id;
}

const run = async (id: string): Promise<Execution> =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json();

const chatRequests = () => fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('embeddings'));
/** The agents the fake model was asked for (each is named in its system prompt). */
const asked = () =>
  chatRequests().map((r) => {
    const system = (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'system');
    return Object.keys(agents).find((name) => system?.content.includes(`You are ${name},`));
  });

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  for (const name of ['Drafter', 'Sender', 'Apologizer'])
    agents[name] = (await createAgent(t, ada.token, { name })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

describe('a run that waits across an upgrade', () => {
  it('resumes under the new code when its approval, stored as an older Crewline wrote it, is approved', async () => {
    const workflowId = await workflow({
      name: 'Refunds',
      status: 'active',
      ...refundApprovalOf(
        { drafter: agents.Drafter, sender: agents.Sender, apologizer: agents.Apologizer },
        { timeout: { seconds: 7 * 24 * 3600, onTimeout: 'reject' } },
      ),
    });
    const approvalId = randomUUID();
    const since = new Date(Date.now() - day);
    const expires = new Date(since.getTime() + 7 * day);
    const id = await insertWaitingRun(
      workflowId,
      {
        v: 1,
        kind: 'approval',
        stepId: 'approve',
        title: 'Refund 120 € to Acme?',
        since: since.toISOString(),
        until: expires.toISOString(),
        approvalId,
      },
      expires,
      [
        {
          nodeId: 'draft',
          agentId: agents.Drafter,
          kind: 'agent',
          output: {
            content: 'Refund drafted before the upgrade',
            metadata: { agentId: agents.Drafter, agentName: 'Drafter', baseNodeId: 'draft' },
            executionTime: 1200,
            usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
            kind: 'agent',
            status: 'completed',
          },
        },
      ],
    );
    await t.database.pool.query(
      `insert into approvals
         (id, organization_id, execution_id, workflow_id, node_id, title, message, status, policy, assignees,
          fields, on_timeout, expires_at, created_at)
       values ($1, $2, $3, $4, 'approve', 'Refund 120 € to Acme?', '', 'pending', '"first"', '{}', '[]',
               'reject', $5, $6)`,
      [approvalId, ada.organization.id, id, workflowId, expires, since],
    );

    // The new code reads the old wait: the run shows what it waits for.
    expect(await run(id)).toMatchObject({
      status: 'waiting',
      waiting: { kind: 'approval', nodeId: 'approve', title: 'Refund 120 € to Acme?', approvalId },
    });

    const decided = await t.request({
      method: 'POST',
      url: `/api/approvals/${approvalId}/decision`,
      token: ada.token,
      payload: { decision: 'approve', comment: 'Still fine' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({ status: 'approved' });

    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.waiting).toBeNull();
    // The step before the approval is the one stored before the upgrade, never asked again.
    expect(done.output.draft).toMatchObject({ content: 'Refund drafted before the upgrade' });
    expect(done.output.approve).toMatchObject({ kind: 'approval', data: { decision: 'approved' } });
    expect(done.output.send).toMatchObject({ status: 'completed' });
    expect(done.output.sorry).toMatchObject({ status: 'skipped' });
    expect(asked()).toEqual(['Sender']);
  });

  it('resumes a delay stored as an older Crewline wrote it once its time has passed, at the end it stored', async () => {
    const workflowId = await workflow({ name: 'Later', status: 'active', ...delayedSendOf(agents.Sender) });
    // Stored two days ago for a day: its end passed while the old code was stopped.
    const since = new Date(Date.now() - 2 * day);
    const until = new Date(since.getTime() + day);
    const id = await insertWaitingRun(
      workflowId,
      {
        v: 1,
        kind: 'delay',
        stepId: 'wait',
        title: 'Wait a day',
        since: since.toISOString(),
        until: until.toISOString(),
        approvalId: null,
      },
      until,
      [],
    );
    expect(await run(id)).toMatchObject({
      status: 'waiting',
      waiting: { kind: 'delay', nodeId: 'wait', until: until.toISOString() },
    });

    await t.wakeUps!.wakeNow();
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.status, done.error ?? '').toBe('completed');
    // It goes on at the end it stored, not a day after the new code read it.
    expect(done.output.wait).toMatchObject({ kind: 'delay', data: { until: until.toISOString() } });
    expect(done.output.send).toMatchObject({ status: 'completed' });
    expect(asked()).toEqual(['Sender']);
  });
});
