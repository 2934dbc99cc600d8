import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { createDb, workflowExecutions } from '@crewline/db';
import { createServices } from '../../app';
import { createEventBus } from '../../platform/events';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { workflowOnFakeModel } from '../../testing/app-fixtures';

// A run meeting a database outage mid-way, in one process: the pool refuses the one write that stores
// a finished step, as it does while Postgres restarts, and answers again right after (the restart
// with real processes is database-restart.process.test.ts). The run must not be failed for it.
let t: TestApp;
let ada: AuthResponse;
let fake: FakeLlmServer;
let workflowId: string;
let faulty: ReturnType<typeof createDb>;
/** The next query whose SQL matches fails with the error (e.g. a connection refused). */
let refuseNext: { sql: RegExp; error: Error } | undefined;
const storingAStep = /insert into "agent_executions"/i;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ config: { runs: { concurrency: 1, leaseMs: 300, maxAttempts: 3 } } });
  ada = await t.signup();
  workflowId = await workflowOnFakeModel(t, ada.token, {
    modelUrl: fake.url,
    workflow: 'Outage',
    agents: [{ name: 'Steady' }],
  });

  faulty = createDb(t.database.url);
  const query = faulty.pool.query.bind(faulty.pool) as (...args: unknown[]) => Promise<unknown>;
  faulty.pool.query = ((config: unknown, ...rest: unknown[]) => {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    if (refuseNext && text && refuseNext.sql.test(text)) {
      const { error } = refuseNext;
      refuseNext = undefined;
      return Promise.reject(error);
    }
    return query(config, ...rest);
  }) as typeof faulty.pool.query;
});
afterAll(async () => {
  await faulty?.close();
  await t?.close();
  await fake?.close();
});

const read = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json() as Execution;

async function pendingRun() {
  const [row] = await t.db
    .insert(workflowExecutions)
    .values({ organizationId: ada.organization.id, workflowId, triggeredBy: ada.user.id })
    .returning();
  return row;
}

describe('a run whose step cannot be stored', () => {
  it('is resumed once the database answers again instead of being marked failed', async () => {
    const { runner } = createServices({ config: t.config, db: faulty.db, events: createEventBus() });
    const row = await pendingRun();
    fake.script([{ content: 'lost with the connection' }, { content: 'stored on the second attempt' }]);

    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    refuseNext = { sql: storingAStep, error: refused };
    await runner.run(row.id);
    expect(refuseNext).toBeUndefined(); // the step's write was refused
    const interrupted = await read(row.id);
    expect(interrupted).toMatchObject({ status: 'running', error: null });

    // Its lease lapses and the next attempt (a worker's next claim) finishes it.
    await new Promise((resolve) => setTimeout(resolve, 350));
    await runner.run(row.id);
    const done = await read(row.id);
    expect(done.status).toBe('completed');
    expect(done.output.n1).toMatchObject({ content: 'stored on the second attempt' });
    expect(done.metrics).toMatchObject({ attempts: 2 });
  });

  it('fails for any other database error, without showing the statement or its values', async () => {
    const { runner } = createServices({ config: t.config, db: faulty.db, events: createEventBus() });
    const row = await pendingRun();
    fake.script([{ content: 'secret-output-value' }]);
    const invalid = Object.assign(new Error('value too long for type character varying(10)'), {
      code: '22001',
    });
    refuseNext = { sql: storingAStep, error: invalid };
    await runner.run(row.id);
    const failed = await read(row.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The run stopped unexpectedly: a database error');
    expect(JSON.stringify(failed.logs)).not.toMatch(/insert into|secret-output-value/i);
  });
});
