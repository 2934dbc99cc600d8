import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users, workflowExecutions } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../testing/test-app';
import { chainOf } from '../testing/workflow-shapes';
import { findBadText, jsonDeeperThan, MAX_JSON_DEPTH } from './input-guard';

/** `{"a":{"a":…{"a":1}…}}` with `levels` objects. */
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('jsonDeeperThan', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonDeeperThan(nestedObjects(3), 3)).toBe(false);
    expect(jsonDeeperThan(nestedObjects(4), 3)).toBe(true);
    expect(jsonDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(jsonDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    // An escaped quote does not end the string, so the brackets after it are still text.
    expect(jsonDeeperThan('{"a":"\\"[[[["}', 1)).toBe(false);
    expect(jsonDeeperThan('{"a":"\\\\"}', 1)).toBe(false);
  });
});

describe('findBadText', () => {
  it('finds NULs and lone surrogates in values and keys at any depth, naming their path', () => {
    expect(findBadText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] }, 'Field')).toEqual([
      { path: 'a.1.c', message: 'Field a.1.c must not contain the NUL character (\\u0000)' },
    ]);
    expect(findBadText({ a: { 'k\u0000': 1 } }, 'Field')).toEqual([
      { path: 'a.k\\u0000', message: 'Field name a.k\\u0000 must not contain the NUL character (\\u0000)' },
    ]);
    expect(findBadText({ q: '\ud800' }, 'Query parameter')[0].message).toBe(
      'Query parameter q must be valid Unicode text (it contains a lone surrogate)',
    );
    expect(findBadText('\u0000', 'Field')[0].message).toMatch(/^Request body must not contain/);
    // Paired surrogates (emoji), U+FFFF, bidi controls and combining marks are valid text.
    expect(findBadText({ a: '😀\uffff\u202ee\u0301', b: [1, null, true] }, 'Field')).toEqual([]);
  });

  it('walks without recursion, so deep values cannot overflow the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(findBadText(deep, 'Field')).toHaveLength(1);
  });
});

let t: TestApp;
let ada: AuthResponse;
let workflowId: string;
let agentId: string;

beforeAll(async () => {
  // A queue, so an execute reaches the database (without one it answers 503 before storing anything).
  t = await createTestApp({ worker: true });
  ada = await t.signup();
  const agent = await t.request({
    method: 'POST',
    url: '/api/agents',
    token: ada.token,
    payload: { name: 'Writer', role: 'Writer', goal: 'Write' },
  });
  agentId = agent.json().id;
  const workflow = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: { name: 'Flow', status: 'active', ...chainOf([agentId]) },
  });
  expect(workflow.statusCode).toBe(201);
  workflowId = workflow.json().id;
});
afterAll(() => t?.close());

const json = (method: 'POST' | 'PUT', url: string, body: string, token?: string) =>
  t.request({ method, url, token, payload: body, headers: { 'content-type': 'application/json' } });

describe('NUL characters', () => {
  it('signup with a NUL in a field answers 400 naming the field, and stores nothing', async () => {
    const username = `nul${Date.now()}`;
    const res = await json(
      'POST',
      '/api/auth/signup',
      JSON.stringify({
        username,
        email: `${username}@example.com`,
        firstName: 'Ada\u0000',
        password: 'secret123',
        confirmPassword: 'secret123',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Field firstName must not contain the NUL character (\\u0000)',
      errors: [
        { path: 'firstName', message: 'Field firstName must not contain the NUL character (\\u0000)' },
      ],
    });
    expect(await t.db.select().from(users).where(eq(users.username, username))).toEqual([]);
  });

  it('execute with a NUL in a nested input value answers 400 naming input.q, and queues no run', async () => {
    const res = await json(
      'POST',
      `/api/workflows/${workflowId}/execute`,
      '{"input":{"q":"\\u0000"}}',
      ada.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Field input.q must not contain the NUL character (\\u0000)');
    expect(res.json().errors).toEqual([{ path: 'input.q', message: res.json().message }]);
    expect(
      await t.db.select().from(workflowExecutions).where(eq(workflowExecutions.workflowId, workflowId)),
    ).toEqual([]);
  });

  it('answers 400 for a NUL in an object key, before validation reports anything else', async () => {
    // No role or goal: validation would answer 'Role is required', but the guard runs first.
    const res = await json('POST', '/api/agents', '{"name":"A","config":{"a\\u0000b":1}}', ada.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        path: 'config.a\\u0000b',
        message: 'Field name config.a\\u0000b must not contain the NUL character (\\u0000)',
      },
    ]);
  });

  it('answers 400 for a NUL in a query parameter or a path parameter', async () => {
    const query = await t.request({ method: 'GET', url: '/api/agents?q=a%00b', token: ada.token });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual({
      message: 'Query parameter q must not contain the NUL character (\\u0000)',
      errors: [{ path: 'q', message: 'Query parameter q must not contain the NUL character (\\u0000)' }],
    });
    const path = await t.request({ method: 'GET', url: '/api/agents/%00', token: ada.token });
    expect(path.statusCode).toBe(400);
    expect(path.json().message).toBe('Path parameter id must not contain the NUL character (\\u0000)');
  });

  it('answers 400 for a lone surrogate, which a jsonb column refuses', async () => {
    const res = await json('PUT', `/api/agents/${agentId}`, '{"config":{"note":"\\ud800"}}', ada.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        path: 'config.note',
        message: 'Field config.note must be valid Unicode text (it contains a lone surrogate)',
      },
    ]);
    // A surrogate pair is a character like any other.
    const ok = await json('PUT', `/api/agents/${agentId}`, '{"config":{"note":"\\ud83d\\ude00"}}', ada.token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().config).toEqual({ note: '😀' });
  });
});

describe('deeply nested JSON', () => {
  const agentWithConfig = (levels: number) =>
    // The body object is level 1, so the config adds levels - 1.
    `{"name":"Deep","role":"R","goal":"G","config":${nestedObjects(levels - 1)}}`;
  const tooDeep = `Request body is nested too deeply (the limit is ${MAX_JSON_DEPTH} levels)`;

  it(`accepts ${MAX_JSON_DEPTH} levels and answers 400 from ${MAX_JSON_DEPTH + 1}`, async () => {
    expect((await json('POST', '/api/agents', agentWithConfig(MAX_JSON_DEPTH), ada.token)).statusCode).toBe(
      201,
    );
    const res = await json('POST', '/api/agents', agentWithConfig(MAX_JSON_DEPTH + 1), ada.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: tooDeep });
  });

  it('answers 400 for 6,000 levels (well under the body limit)', async () => {
    for (const body of [agentWithConfig(6000), `${'['.repeat(6000)}${']'.repeat(6000)}`]) {
      const res = await json('POST', '/api/agents', body, ada.token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: tooDeep });
    }
  });

  it("keeps Fastify's JSON protections and messages", async () => {
    const proto = await json('POST', '/api/agents', '{"name":"A","__proto__":{"x":1}}', ada.token);
    expect(proto.statusCode).toBe(400);
    const ctor = await json('POST', '/api/agents', '{"constructor":{"prototype":{"x":1}}}', ada.token);
    expect(ctor.statusCode).toBe(400);
    const empty = await json('POST', '/api/agents', '', ada.token);
    expect(empty.json()).toEqual({ message: 'Request body is empty but Content-Type is application/json' });
    const malformed = await json('POST', '/api/agents', '{"name":', ada.token);
    expect(malformed.json()).toEqual({ message: 'Malformed JSON in request body' });
    const large = await json('POST', '/api/agents', `{"name":"${'x'.repeat(1024 * 1024)}"}`, ada.token);
    expect(large.statusCode).toBe(413);
  });
});
