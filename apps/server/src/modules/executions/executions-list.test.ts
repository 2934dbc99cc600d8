import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowExecutions } from '@crewline/db';
import type { AuthResponse, ExecutionStatus, ExecutionSummary } from '@crewline/contracts';
import { insertWorkflow } from '../../testing/direct-rows';
import { createTestApp, type TestApp } from '../../testing/test-app';

// GET /api/executions: light summaries, keyset pages (X-Next-Cursor), filters, tenant isolation.

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
  bob = await t.signup();
});
afterAll(async () => {
  await t?.close();
});

const createWorkflow = (organizationId: string, name: string) => insertWorkflow(t, organizationId, name);

type RunRow = typeof workflowExecutions.$inferInsert;

/** Inserts `count` finished runs straight into the table, `fields(i)` on top of a heavy default. */
async function insertRuns(
  count: number,
  base: Pick<RunRow, 'organizationId' | 'workflowId'>,
  fields: (i: number) => Partial<RunRow> = () => ({}),
) {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const rows = await t.db
      .insert(workflowExecutions)
      .values(
        Array.from({ length: Math.min(1000, count - start) }, (_, k) => ({
          ...base,
          status: 'completed' as const,
          output: {
            writer: {
              content: 'a long answer',
              metadata: { agentName: 'Writer', role: 'Writes', model: 'gpt-4o' },
              executionTime: 1,
              usage: { promptTokens: 6, completionTokens: 4, totalTokens: 10 },
            },
          },
          logs: [{ at: new Date().toISOString(), level: 'info', message: 'Run queued' }],
          metrics: { totalTokens: 10 },
          ...fields(start + k),
        })),
      )
      .returning({ id: workflowExecutions.id });
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

const list = (query: string, token = ada.token) =>
  t.request({ method: 'GET', url: `/api/executions${query}`, token });

/** Follows X-Next-Cursor from the first page to the last. */
async function pageThrough(query: string, token = ada.token) {
  const pages: ExecutionSummary[][] = [];
  let cursor: string | undefined;
  do {
    const sep = query ? '&' : '?';
    const res = await list(`${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(res.statusCode).toBe(200);
    pages.push(res.json());
    cursor = res.headers['x-next-cursor'] as string | undefined;
  } while (cursor);
  return pages;
}

const newestFirst = (runs: ExecutionSummary[]) =>
  runs.every(
    (run, i) =>
      i === 0 ||
      runs[i - 1].createdAt > run.createdAt ||
      (runs[i - 1].createdAt === run.createdAt && runs[i - 1].id > run.id),
  );

describe('GET /api/executions', () => {
  it("answers summaries with the card's fields and the result text, never the output map, logs or metrics", async () => {
    const workflowId = await createWorkflow(ada.organization.id, 'Summaries');
    const long = 'x'.repeat(2500);
    const [text, object, none, cut] = await insertRuns(
      4,
      { organizationId: ada.organization.id, workflowId },
      (i) => ({
        triggeredBy: ada.user.id,
        workflowVersion: 3,
        startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        completedAt: new Date(Date.UTC(2026, 0, 1, 0, 1, i)),
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        result: [`The final answer`, { writer: 'one', critic: 'two' }, null, long][i],
      }),
    );

    const res = await list(`?workflowId=${workflowId}`);
    expect(res.statusCode).toBe(200);
    const runs = res.json() as Record<string, unknown>[];
    expect(runs.map((r) => r.id)).toEqual([cut, none, object, text]);
    for (const run of runs) {
      expect(run).not.toHaveProperty('output');
      expect(run).not.toHaveProperty('logs');
      expect(run).not.toHaveProperty('metrics');
      expect(run).not.toHaveProperty('input');
    }
    expect(runs[3]).toEqual({
      id: text,
      workflowId,
      workflowName: 'Summaries',
      processType: 'sequential',
      workflowVersion: 3,
      status: 'completed',
      error: null,
      failedStep: null,
      waiting: null,
      untrusted: false,
      retryOf: null,
      retriedBy: null,
      result: 'The final answer',
      trigger: 'manual',
      triggerDetail: null,
      triggeredBy: ada.user.id,
      triggeredByName: 'Ada Lovelace',
      startedAt: '2026-01-01T00:00:00.000Z',
      completedAt: '2026-01-01T00:01:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(JSON.parse(runs[2].result as string)).toEqual({ writer: 'one', critic: 'two' });
    expect(runs[1].result).toBeNull();
    expect(runs[0].result).toBe('x'.repeat(2000));

    // The run itself stays whole.
    const whole = (
      await t.request({ method: 'GET', url: `/api/executions/${cut}`, token: ada.token })
    ).json();
    expect(whole.output).toHaveProperty('writer');
    expect(whole.logs).toHaveLength(1);
  });

  it('pages through 120 runs with limit and cursor: no duplicates, no gaps, newest first', async () => {
    const owner = await t.signup();
    const workflowId = await createWorkflow(owner.organization.id, 'Paged');
    // Runs sharing a created_at too, so the id breaks ties across page boundaries.
    const ids = await insertRuns(120, { organizationId: owner.organization.id, workflowId }, (i) => ({
      createdAt: new Date(Date.UTC(2026, 1, 1, 0, 0, Math.floor(i / 3))),
    }));

    const first = await list('', owner.token);
    expect(first.json()).toHaveLength(50);
    expect(first.headers['x-next-cursor']).toBeTruthy();

    const pages = await pageThrough('?limit=25', owner.token);
    expect(pages.map((p) => p.length)).toEqual([25, 25, 25, 25, 20]);
    const runs = pages.flat();
    expect(new Set(runs.map((r) => r.id)).size).toBe(120);
    expect([...runs.map((r) => r.id)].sort()).toEqual([...ids].sort());
    expect(newestFirst(runs)).toBe(true);

    // A page that ends exactly at the last run has no next cursor.
    const exact = await pageThrough('?limit=60', owner.token);
    expect(exact.map((p) => p.length)).toEqual([60, 60]);
  });

  it('filters by workflow and by status, and pages within the filter', async () => {
    const owner = await t.signup();
    const org = owner.organization.id;
    const w1 = await createWorkflow(org, 'One');
    const w2 = await createWorkflow(org, 'Two');
    const statuses: ExecutionStatus[] = ['completed', 'failed', 'running'];
    await insertRuns(30, { organizationId: org, workflowId: w1 }, (i) => ({ status: statuses[i % 3] }));
    await insertRuns(5, { organizationId: org, workflowId: w2 }, () => ({ status: 'failed' }));

    const ofW2 = (await list(`?workflowId=${w2}`, owner.token)).json() as ExecutionSummary[];
    expect(ofW2).toHaveLength(5);
    expect(ofW2.every((r) => r.workflowId === w2)).toBe(true);

    const failed = (await pageThrough('?status=failed&limit=4', owner.token)).flat();
    expect(failed).toHaveLength(15);
    expect(failed.every((r) => r.status === 'failed')).toBe(true);

    const failedOfW1 = (await pageThrough(`?status=failed&workflowId=${w1}&limit=3`, owner.token)).flat();
    expect(failedOfW1).toHaveLength(10);
    expect(failedOfW1.every((r) => r.status === 'failed' && r.workflowId === w1)).toBe(true);
  });

  it('answers 400 to a bad limit, cursor, status or workflow id', async () => {
    for (const query of [
      '?limit=0',
      '?limit=201',
      '?limit=abc',
      '?limit=2.5',
      '?cursor=not-a-cursor',
      `?cursor=${Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url')}`,
      '?status=finished',
      '?workflowId=not-a-uuid',
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toBeTruthy();
    }
    expect((await list('?limit=200')).statusCode).toBe(200);
  });

  it("never shows another organization's runs, even with its workflow id or a cursor from its pages", async () => {
    const owner = await t.signup();
    const workflowId = await createWorkflow(owner.organization.id, 'Private');
    await insertRuns(3, { organizationId: owner.organization.id, workflowId });
    const mine = await list('?limit=2', owner.token);
    const cursor = mine.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();

    expect((await list('', bob.token)).json()).toEqual([]);
    expect((await list(`?workflowId=${workflowId}`, bob.token)).json()).toEqual([]);
    expect((await list(`?cursor=${encodeURIComponent(cursor)}`, bob.token)).json()).toEqual([]);
  });

  it('pages correctly with 5,000 runs', async () => {
    const owner = await t.signup();
    const org = owner.organization.id;
    const flows = [await createWorkflow(org, 'A'), await createWorkflow(org, 'B')];
    const now = Date.now();
    const ids: string[] = [];
    for (const [k, workflowId] of flows.entries()) {
      ids.push(
        ...(await insertRuns(2500, { organizationId: org, workflowId }, (i) => ({
          createdAt: new Date(now - (i * 2 + k) * 1000),
          result: `answer ${i}`,
        }))),
      );
    }

    const pages = await pageThrough('?limit=200', owner.token);
    expect(pages).toHaveLength(25);
    const runs = pages.flat();
    expect(runs).toHaveLength(5000);
    expect(new Set(runs.map((r) => r.id))).toEqual(new Set(ids));
    expect(newestFirst(runs)).toBe(true);
  });
});
