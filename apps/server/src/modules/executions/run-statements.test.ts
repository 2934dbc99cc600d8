import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { configureModel, createAgent, createChainWorkflow, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { isOutboxStatement, statementsDuring, UNCOUNTED } from '../../testing/statements';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * How many SQL statements one run of a one-agent workflow costs, from the execute request to the
 * run's completed row and the worker's settling after it: the session, the run rule and the plan's
 * limit, the row inserted already claimed by the idle worker loop (with everything the run needs,
 * local-claims.ts), and the end, which stores the last step with the run (step-recorder.ts). Every
 * statement is a round trip, and they are most of a run's cost. The ceiling only goes down
 * (docs/product-rules.md, Performance budgets).
 */
const CEILING = 4;
/**
 * The statements that send notifications after their commit (the Postgres bus's outbox,
 * docs/decisions/0055-notifications-after-commit.md) are not the run's own: each sends what every run
 * in flight left for it, so under load one serves many runs. A run alone needs one for being queued
 * and one for its end (its started event rides with it), or three when its step outlasts the started
 * event's wait (a busy machine), and one more per further step.
 */
const OUTBOX_CEILING = 3;

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let workflowId: string;
let threeAgents: string;
let deciding: string;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  const agent = await createAgent(t, ada.token, { name: 'Writer' });
  workflowId = await createChainWorkflow(t, ada.token, 'One agent', [agent.id]);
  const more = [agent.id];
  for (const name of ['Editor', 'Reviewer']) more.push((await createAgent(t, ada.token, { name })).id);
  threeAgents = await createChainWorkflow(t, ada.token, 'Three agents', more);
  // One agent, then a condition, a transform on its taken path and a merge: three steps without a model.
  const created = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: {
      name: 'Deciding',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 } },
        { id: 'write', type: 'agent', agentId: agent.id, position: { x: 1, y: 0 } },
        {
          id: 'route',
          type: 'condition',
          position: { x: 2, y: 0 },
          data: { branches: [{ id: 'long', label: 'Long', when: 'size(nodes.write.content) > 0' }] },
        },
        {
          id: 'sum',
          type: 'transform',
          position: { x: 3, y: 0 },
          data: { assignments: [{ name: 'length', value: 'size(nodes.write.content)' }] },
        },
        { id: 'join', type: 'merge', position: { x: 4, y: 0 } },
        { id: 'end', type: 'end', position: { x: 5, y: 0 } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'write' },
        { id: 'e2', source: 'write', target: 'route' },
        { id: 'e3', source: 'route', target: 'sum', sourceHandle: 'long' },
        { id: 'e4', source: 'route', target: 'join', sourceHandle: 'else' },
        { id: 'e5', source: 'sum', target: 'join' },
        { id: 'e6', source: 'join', target: 'end' },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  deciding = created.json().id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function oneRun(workflow = workflowId) {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflow}/execute`,
    token: ada.token,
    payload: { input: { topic: 'tides' } },
  });
  expect(res.statusCode).toBe(202);
  const id = res.json().id as string;
  for (;;) {
    const { rows } = await t.db.$client.query<{ status: string }>(
      // Our own polls for the run's end are not counted.
      `${UNCOUNTED} select status from workflow_executions where id = $1`,
      [id],
    );
    // The worker's own statements after the finish (looking for another run) count too.
    if (rows[0].status === 'completed') return new Promise<void>((resolve) => setTimeout(resolve, 100));
    expect(['pending', 'running']).toContain(rows[0].status);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The statements of the cheapest run of the workflow (after two to warm it up): up to eight runs,
 * stopping at the first within `ceiling`.
 */
async function fewestStatements(workflow: string, ceiling: number) {
  // A further step that announces its end adds an outbox statement as it adds its own.
  const outboxCeiling = OUTBOX_CEILING + ceiling - CEILING;
  // Warm: the first runs fill caches (the model catalogue, the workflow version) later runs reuse.
  for (let i = 0; i < 2; i++) {
    const res = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflow}/execute`,
      token: ada.token,
      payload: { input: {} },
    });
    await waitForRunEnd(t, ada.token, res.json().id);
  }
  // Background work (an idle worker's poll every 2 s, schedules) can only add, and on a loaded machine
  // a longer run often overlaps it, or its steps outlast the outbox's wait and each sends its own: the
  // best run counts (within both ceilings, else the fewest statements of its own, then sent). A
  // statement every run makes is in each of them.
  type Counted = { own: string[]; sent: string[] };
  const within = (run: Counted) => run.own.length <= ceiling && run.sent.length <= outboxCeiling;
  const rank = (run: Counted) => (within(run) ? 0 : 1e6) + run.own.length * 1e3 + run.sent.length;
  let best: Counted | undefined;
  for (let i = 0; i < 8 && !(best && within(best)); i++) {
    const statements = await statementsDuring(() => oneRun(workflow));
    const run = {
      own: statements.filter((statement) => !isOutboxStatement(statement)),
      sent: statements.filter(isOutboxStatement),
    };
    if (!best || rank(run) < rank(best)) best = run;
  }
  const fewest = best?.own;
  const outbox = best?.sent ?? [];
  // The run's notifications left after their commits, none from inside the run's own statements.
  expect(outbox.length, listed(outbox)).toBeGreaterThan(0);
  expect(outbox.length, listed(outbox)).toBeLessThanOrEqual(outboxCeiling);
  expect((fewest ?? []).filter((statement) => statement.includes('pg_notify'))).toEqual([]);
  return fewest ?? [];
}

const listed = (statements: string[]) => statements.map((s, i) => `${i + 1}. ${s.slice(0, 120)}`).join('\n');

describe('a run', () => {
  it(`of one agent costs at most ${CEILING} SQL statements, from the request to the completed run`, async () => {
    const fewest = await fewestStatements(workflowId, CEILING);
    expect(fewest.length, listed(fewest)).toBeLessThanOrEqual(CEILING);
    // Metered within that: the step's spend goes to the ledger with the statement that stores the step.
    const storing = fewest.filter((s) => s.includes('insert into "agent_executions"'));
    expect(storing, listed(fewest)).toHaveLength(1);
    expect(storing[0]).toContain('insert into "model_usage"');
  });

  it('costs one statement more for each further step: storing it', async () => {
    const fewest = await fewestStatements(threeAgents, CEILING + 2);
    expect(fewest.length, listed(fewest)).toBeLessThanOrEqual(CEILING + 2);
  });

  it('costs at most one statement for each step that calls no model (a condition, a transform, a merge)', async () => {
    const fewest = await fewestStatements(deciding, CEILING + 3);
    expect(fewest.length, listed(fewest)).toBeLessThanOrEqual(CEILING + 3);
  });
});
