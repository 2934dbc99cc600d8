import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { configureModel, createAgent, createChainWorkflow, runToEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder } from '../../testing/fake-model-suite';
import { createTestApp, type TestApp } from '../../testing/test-app';

// An agent's output schema: the shape its answers follow in runs unless a node declares its own.
let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let bob: AuthResponse;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  ada = await t.signup();
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url);
});
afterAll(() => closeInOrder(t, fake));
beforeEach(() => fake.reset());

const triage = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: ['billing', 'bug', 'other'], description: 'What the ticket is about' },
    summary: { type: 'string' },
  },
  required: ['category'],
};

const base = { name: 'Triage', role: 'Support triage', goal: 'Classify tickets' };
const post = (payload: Record<string, unknown>, token = ada.token) =>
  t.request({ method: 'POST', url: '/api/agents', token, payload });
const put = (id: string, payload: Record<string, unknown>, token = ada.token) =>
  t.request({ method: 'PUT', url: `/api/agents/${id}`, token, payload });
const get = (id: string, token = ada.token) => t.request({ method: 'GET', url: `/api/agents/${id}`, token });

describe('an agent’s output schema', () => {
  it('is saved, answered, replaced and cleared; an agent without one answers null', async () => {
    const plain = await post(base);
    expect(plain.statusCode).toBe(201);
    expect(plain.json().outputSchema).toBeNull();

    const created = await post({ ...base, outputSchema: triage });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(created.json().outputSchema).toEqual(triage);
    expect((await get(id)).json().outputSchema).toEqual(triage);
    const listed = (await t.request({ method: 'GET', url: '/api/agents', token: ada.token })).json();
    expect(listed.find((a: { id: string }) => a.id === id).outputSchema).toEqual(triage);

    // A PUT without it keeps it; another schema replaces it; null clears it.
    expect((await put(id, { name: 'Triage 2' })).json().outputSchema).toEqual(triage);
    const flag = { type: 'object', properties: { urgent: { type: 'boolean' } }, required: ['urgent'] };
    expect((await put(id, { outputSchema: flag })).json().outputSchema).toEqual(flag);
    const cleared = await put(id, { outputSchema: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().outputSchema).toBeNull();
    expect((await get(id)).json().outputSchema).toBeNull();
  });

  it('must be a JSON Schema of an object that compiles, refused with 400 under outputSchema', async () => {
    const refusals: [unknown, string][] = [
      [[{ type: 'object' }], 'The output schema must be a JSON object'],
      ['{"type":"object"}', 'The output schema must be a JSON object'],
      [
        { type: 'array', items: { type: 'string' } },
        'The output schema must describe an object ("type": "object")',
      ],
      [
        { properties: { a: { type: 'string' } } },
        'The output schema must describe an object ("type": "object")',
      ],
      [{ type: 'object', properties: ['a'] }, 'The output schema has "properties" that are not an object'],
    ];
    for (const [outputSchema, message] of refusals) {
      const res = await post({ ...base, outputSchema });
      expect({ outputSchema, status: res.statusCode }).toEqual({ outputSchema, status: 400 });
      expect(res.json().errors).toContainEqual({ path: 'outputSchema', message });
    }

    // An object schema that is not valid JSON Schema: caught when saved, not at the first run.
    const broken = await post({
      ...base,
      outputSchema: { type: 'object', properties: { score: { type: 'numbr' } } },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^The output schema is not a valid JSON Schema: /);
    expect(broken.json().errors[0].path).toBe('outputSchema');

    const { id } = (await post(base)).json();
    const update = await put(id, { outputSchema: { type: 'string' } });
    expect(update.statusCode).toBe(400);
    expect(update.json().errors).toContainEqual({
      path: 'outputSchema',
      message: 'The output schema must describe an object ("type": "object")',
    });
    expect((await get(id)).json().outputSchema).toBeNull();
  });

  it('is not seen or changed by another organization', async () => {
    const { id } = (await post({ ...base, outputSchema: triage })).json();
    expect((await get(id, bob.token)).statusCode).toBe(404);
    expect((await put(id, { outputSchema: null }, bob.token)).statusCode).toBe(404);
    expect((await get(id)).json().outputSchema).toEqual(triage);
  });

  it('shapes the answers of its steps in a run: the model is asked for it and the step keeps the data', async () => {
    const agent = await createAgent(t, ada.token, { ...base, outputSchema: triage });
    const workflowId = await createChainWorkflow(t, ada.token, 'Triage tickets', [agent.id]);
    fake.script([{ data: { category: 'bug', summary: 'Crash on save' } }]);

    const run = await runToEnd(t, ada.token, workflowId, { ticket: 'The app crashes when I save.' });

    expect(run.status).toBe('completed');
    const asked = fake.requests[0].body.response_format;
    expect(asked).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    // Strict mode: every field required (summary, optional, may be null), no others.
    expect(asked.json_schema.schema.required.sort()).toEqual(['category', 'summary']);
    expect(asked.json_schema.schema.properties.summary.type).toEqual(['string', 'null']);
    const output = (run.output as Record<string, { content: string; data?: unknown }>).n1;
    expect(output.data).toEqual({ category: 'bug', summary: 'Crash on save' });
    expect(JSON.parse(output.content)).toEqual(output.data);
  });
});
