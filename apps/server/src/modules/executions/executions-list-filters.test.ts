import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { workflowExecutions } from '@crewline/db';
import type { AuthResponse, ExecutionSummary, ExecutionTrigger } from '@crewline/contracts';
import { insertWorkflow } from '../../testing/direct-rows';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { OPENAPI_PATH } from '../../platform/openapi';

// GET /api/executions filters: workflow, status, trigger and a created-at window, alone and together,
// keyset pages within them, 400 on bad values, other organizations' workflows matching nothing.

let t: TestApp;
let owner: AuthResponse;
let other: AuthResponse;
let one: string;
let two: string;

const DAY = Date.UTC(2026, 2, 10);
const triggers: ExecutionTrigger[] = ['manual', 'schedule', 'webhook', 'email'];

const createWorkflow = (organizationId: string, name: string) => insertWorkflow(t, organizationId, name);

type RunRow = typeof workflowExecutions.$inferInsert;

async function insertRuns(count: number, fields: (i: number) => RunRow) {
  for (let start = 0; start < count; start += 1000) {
    await t.db
      .insert(workflowExecutions)
      .values(Array.from({ length: Math.min(1000, count - start) }, (_, k) => fields(start + k)));
  }
}

const list = (query: string, token = owner.token) =>
  t.request({ method: 'GET', url: `/api/executions${query}`, token });

/** Follows X-Next-Cursor to the last page, from the first page or from `start`. */
async function pageThrough(query: string, token = owner.token, start?: string) {
  const runs: ExecutionSummary[] = [];
  let cursor: string | undefined = start;
  let pages = 0;
  do {
    const res = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    runs.push(...(res.json() as ExecutionSummary[]));
    cursor = res.headers['x-next-cursor'] as string | undefined;
    pages++;
  } while (cursor);
  return { runs, pages };
}

const hour = (h: number) => new Date(DAY + h * 3600_000);

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
  other = await t.signup();
  one = await createWorkflow(owner.organization.id, 'One');
  two = await createWorkflow(owner.organization.id, 'Two');
  // 48 runs over two days, an hour apart: workflows alternate, triggers cycle every 4, statuses every 3.
  await insertRuns(48, (i) => ({
    organizationId: owner.organization.id,
    workflowId: i % 2 === 0 ? one : two,
    trigger: triggers[i % 4],
    status: (['completed', 'failed', 'cancelled'] as const)[i % 3],
    createdAt: hour(i),
  }));
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/executions filters', () => {
  it('filters by trigger alone', async () => {
    const { runs } = await pageThrough('?trigger=webhook&limit=5');
    expect(runs).toHaveLength(12);
    expect(runs.every((r) => r.trigger === 'webhook')).toBe(true);
  });

  it('filters by a created-at window: from inclusive, to exclusive, any offset', async () => {
    const from = hour(10).toISOString();
    const to = hour(20).toISOString();
    const { runs } = await pageThrough(`?from=${from}&to=${to}&limit=4`);
    expect(runs.map((r) => r.createdAt)).toEqual(
      Array.from({ length: 10 }, (_, k) => hour(19 - k).toISOString()),
    );
    // The same instant written with the viewer's offset (+02:00) selects the same runs.
    const shifted = '2026-03-10T14:00:00+02:00';
    const onlyFrom = (await pageThrough(`?from=${encodeURIComponent(shifted)}&limit=50`)).runs;
    expect(onlyFrom).toHaveLength(36);
    expect(onlyFrom.at(-1)?.createdAt).toBe(hour(12).toISOString());
    const onlyTo = (await pageThrough(`?to=${hour(3).toISOString()}&limit=50`)).runs;
    expect(onlyTo.map((r) => r.createdAt)).toEqual([hour(2), hour(1), hour(0)].map((d) => d.toISOString()));
  });

  it('combines workflow, status, trigger and window, paging within them without gaps or repeats', async () => {
    // Workflow One has the even runs; of those, manual ones are i % 4 === 0, completed i % 3 === 0:
    // i = 0, 12, 24, 36 — and the window [hour 6, hour 40) keeps 12, 24 and 36.
    const query = `?workflowId=${one}&status=completed&trigger=manual&from=${hour(6).toISOString()}&to=${hour(40).toISOString()}&limit=1`;
    const { runs, pages } = await pageThrough(query);
    expect(pages).toBe(3);
    expect(runs.map((r) => r.createdAt)).toEqual([hour(36), hour(24), hour(12)].map((d) => d.toISOString()));
    expect(
      runs.every((r) => r.workflowId === one && r.status === 'completed' && r.trigger === 'manual'),
    ).toBe(true);

    const ofTwo = await pageThrough(`?workflowId=${two}&limit=7`);
    expect(ofTwo.runs).toHaveLength(24);
    expect(new Set(ofTwo.runs.map((r) => r.id)).size).toBe(24);
    expect(ofTwo.pages).toBe(4);
  });

  it('pages a filter through runs that share a timestamp: no gaps, no repeats, the same order every time', async () => {
    const tied = await t.signup();
    const org = tied.organization.id;
    const flow = await createWorkflow(org, 'Tied');
    const elsewhere = await createWorkflow(org, 'Rest');
    // 60 runs, 8 at each instant (a batch of triggers): at each, 2 of Tied's are webhook runs, so the
    // filter's pages of 3 end between runs that share a timestamp.
    await insertRuns(60, (i) => ({
      organizationId: org,
      workflowId: i % 2 === 0 ? flow : elsewhere,
      trigger: i % 4 < 2 ? 'webhook' : 'schedule',
      status: 'completed',
      createdAt: hour(Math.floor(i / 8)),
    }));
    const expected = (
      await t.db
        .select({ id: workflowExecutions.id, at: workflowExecutions.createdAt })
        .from(workflowExecutions)
        .where(sql`${workflowExecutions.workflowId} = ${flow} and ${workflowExecutions.trigger} = 'webhook'`)
    )
      .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    expect(expected).toHaveLength(15);

    const query = `?workflowId=${flow}&trigger=webhook&limit=3`;
    const first = await pageThrough(query, tied.token);
    expect(first.pages).toBe(5);
    expect(first.runs.map((r) => r.id)).toEqual(expected);
    expect(first.runs.every((r) => r.workflowId === flow && r.trigger === 'webhook')).toBe(true);
    // A run started between two pages shifts nothing in the next pages, and shows first when paging again.
    const page1 = await list(query, tied.token);
    await insertRuns(1, () => ({
      organizationId: org,
      workflowId: flow,
      trigger: 'webhook',
      status: 'running',
      createdAt: hour(100),
    }));
    const cursor = page1.headers['x-next-cursor'] as string;
    const rest = await pageThrough(query, tied.token, cursor);
    expect([...(page1.json() as ExecutionSummary[]), ...rest.runs].map((r) => r.id)).toEqual(expected);
    const again = (await pageThrough(query, tied.token)).runs;
    expect(again[0].status).toBe('running');
    expect(again.slice(1).map((r) => r.id)).toEqual(expected);
  });

  it('answers 400 with a message to unknown or malformed filter values', async () => {
    for (const query of [
      '?trigger=retry',
      '?trigger=',
      '?status=done',
      '?workflowId=123',
      '?from=yesterday',
      '?to=2026-03-10',
      `?from=${hour(5).toISOString()}&to=${hour(5).toISOString()}`,
      `?from=${hour(6).toISOString()}&to=${hour(5).toISOString()}`,
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type'], query).toContain('application/json');
      expect(typeof res.json().message, query).toBe('string');
    }
  });

  it("matches nothing with another organization's workflow, whatever the other filters", async () => {
    expect((await list(`?workflowId=${one}`, other.token)).json()).toEqual([]);
    expect((await list(`?workflowId=${one}&trigger=manual`, other.token)).json()).toEqual([]);
    expect((await list(`?trigger=manual`, other.token)).json()).toEqual([]);
  });

  it('documents the filters in the API reference', async () => {
    const res = await t.request({ method: 'GET', url: OPENAPI_PATH });
    const parameters = res.json().paths['/api/executions'].get.parameters as { name: string; in: string }[];
    expect(parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['workflowId', 'status', 'trigger', 'from', 'to', 'limit', 'cursor']),
    );
  });

  it("reads one workflow's runs through its (workflow_id, created_at) index among 5,000 runs", async () => {
    const big = await t.signup();
    const flows = [
      await createWorkflow(big.organization.id, 'A'),
      await createWorkflow(big.organization.id, 'B'),
    ];
    const now = Date.now();
    // One run in twenty is B's: its runs are rare among the organization's, as a workflow's usually are
    // (were it half of them, reading the organization's index and skipping the other half would do as well).
    await insertRuns(5000, (i) => ({
      organizationId: big.organization.id,
      workflowId: flows[i % 20 === 0 ? 1 : 0],
      status: 'completed',
      trigger: triggers[i % 4],
      createdAt: new Date(now - i * 1000),
    }));
    await t.db.execute(sql`analyze workflow_executions`);

    // The list's own statement, as the route sends it, explained with its own parameters.
    const seen: { text: string; values: unknown[] }[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string; values?: unknown[] };
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      const values = (typeof first === 'object' ? first?.values : undefined) ?? (args[1] as unknown[]) ?? [];
      if (text.includes('from "workflow_executions"')) seen.push({ text, values });
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    let res;
    try {
      res = await list(`?workflowId=${flows[1]}&limit=50`, big.token);
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(res.json()).toHaveLength(50);
    const statement = seen.find((s) => s.text.includes('"workflow_executions"."workflow_id" = '));
    expect(statement).toBeDefined();
    const plan = await t.database.pool.query(`explain ${statement!.text}`, statement!.values);
    const text = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('workflow_executions_workflow_id_created_at_idx');
    expect(text).not.toMatch(/Seq Scan on workflow_executions/);
  });
});
