import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TEST_GREETING, type AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  attachNewTool,
  configureModel,
  createAgent,
  expectNeverAnswered,
  SCOUT,
} from '../../testing/app-fixtures';
import { createLoginRole, createTestDb, type TestDb } from '../../testing/test-db';
import { startFakeLlmServer } from '../../testing/fake-llm-server';
import { startFakeOrdersApi, type FakeOrdersApi } from '../../testing/fake-orders-api';
import { startTcpForwarder } from '../../testing/tcp-forwarder';
import { modelToolName } from '../tools/runtime/tool-runtime';

const OPENAI_KEY = 'sk-fake-openai-key-for-tests-1234';
const ORDERS_KEY = 'orders-api-key-abcdefghijkl';

let t: TestApp;
let ada: AuthResponse;
let fake: Awaited<ReturnType<typeof startFakeLlmServer>>;
let orders: FakeOrdersApi;
let shop: TestDb;
let shopUrl: string;
let shopProxy: Awaited<ReturnType<typeof startTcpForwarder>>;

beforeAll(async () => {
  fake = await startFakeLlmServer({ requireKey: OPENAI_KEY });
  orders = await startFakeOrdersApi();
  shop = await createTestDb();
  await shop.pool.query(
    `create table products (id int primary key, name text); insert into products values (1, 'Widget'), (2, 'Gadget')`,
  );
  // The app's own database is reserved: the shop's database is reached as another server would be.
  shopProxy = await startTcpForwarder(await createLoginRole(shop));
  shopUrl = shopProxy.url;

  t = await createTestApp();
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url, { apiKey: OPENAI_KEY, defaultModel: 'gpt-4o' });
});
afterAll(async () => {
  expectNeverAnswered(t, [OPENAI_KEY, ORDERS_KEY]);
  await t.close();
  await shopProxy.close();
  await shop.close();
  await fake.close();
  await orders.close();
});

/** Scout, a market researcher; `fields` change or add to its settings. */
const createScout = (fields: Record<string, unknown> = {}) =>
  createAgent(t, ada.token, { ...SCOUT, ...fields });
const testAgent = (id: string, payload?: object) =>
  t.request({ method: 'POST', url: `/api/agents/${id}/test`, token: ada.token, payload });

describe('agent test', () => {
  it("sends the organization's key to its base URL with the agent's prompt and settings", async () => {
    const agent = await createScout({
      backstory: 'Ten years in retail.',
      systemPrompt: 'Answer in one sentence.',
      temperature: 40,
      maxTokens: 300,
    });
    fake.script([{ content: 'Hello, I am Scout and I research markets.' }]);
    const res = await testAgent(agent.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      response: 'Hello, I am Scout and I research markets.',
      error: null,
    });
    expect(res.json().usage.totalTokens).toBeGreaterThan(0);

    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(sent.body).toMatchObject({ model: 'llama-test', temperature: 0.4, max_tokens: 300 });
    const [system, user] = sent.body.messages;
    expect(system.role).toBe('system');
    for (const part of [
      'Scout',
      'Market researcher',
      'Find pricing data',
      'Ten years in retail.',
      'Answer in one sentence.',
    ]) {
      expect(system.content).toContain(part);
    }
    expect(user).toEqual({ role: 'user', content: AGENT_TEST_GREETING });
  });

  it('answers success false with the error when the model call fails', async () => {
    const agent = await createScout();
    fake.failNext(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const res = await testAgent(agent.id, { input: 'Hi' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: false, response: null });
    expect(res.json().error).toContain('Incorrect API key provided');
  });

  it('says where to configure a provider that has no key', async () => {
    const agent = await createScout({ llmProvider: 'anthropic', llmModel: 'claude-sonnet-4-5' });
    const res = await testAgent(agent.id);
    expect(res.json()).toMatchObject({ success: false });
    expect(res.json().error).toMatch(/Settings → Tools/);
  });

  it('runs an HTTP tool the model asks for and gives it the result', async () => {
    const agent = await createScout();
    const tool = await attachNewTool(t, ada.token, agent.id, orders.tool(ORDERS_KEY));
    const name = modelToolName(tool);
    fake.script([
      { toolCalls: [{ name, arguments: { method: 'GET', path: 'orders/42' } }] },
      { content: 'Order 42 has shipped.' },
    ]);
    const before = fake.requests.length;

    const res = await testAgent(agent.id, { input: 'Where is order 42?' });
    expect(res.json()).toMatchObject({ success: true, response: 'Order 42 has shipped.' });
    expect(orders.seen.at(-1)).toEqual({ url: '/v1/orders/42', auth: `Bearer ${ORDERS_KEY}` });
    const calls = fake.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[0].body.tools.map((x: { function: { name: string } }) => x.function.name)).toContain(name);
    const toolMessage = calls[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('shipped');
  });

  it('runs a database tool read-only and gives the rows to the model', async () => {
    const agent = await createScout();
    const tool = await attachNewTool(t, ada.token, agent.id, {
      name: 'Shop DB',
      category: 'database',
      config: { connectionString: shopUrl },
    });
    const name = modelToolName(tool);
    fake.script([
      { toolCalls: [{ name, arguments: { sql: 'select name from products order by id' } }] },
      { toolCalls: [{ name, arguments: { sql: "insert into products values (3, 'Hack')" } }] },
      { content: 'We sell Widget and Gadget.' },
    ]);
    const before = fake.requests.length;
    const res = await testAgent(agent.id, { input: 'What do we sell?' });
    expect(res.json()).toMatchObject({ success: true, response: 'We sell Widget and Gadget.' });
    const [, second, third] = fake.requests.slice(before);
    const rows = second.body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content;
    expect(rows).toContain('Widget');
    expect(rows).toContain('Gadget');
    const refused = third.body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1).content;
    expect(refused).toMatch(/read-only/i);
    expect((await shop.pool.query('select count(*)::int as n from products')).rows[0].n).toBe(2);
  });

  it('lists the provider models from the configured provider, else the built-in list', async () => {
    fake.setModels(['gpt-4o', 'gpt-4.1-mini', 'o4-mini']);
    const res = await t.request({ method: 'GET', url: '/api/llm/providers', token: ada.token });
    expect(res.statusCode).toBe(200);
    const catalogue = res.json();
    expect(catalogue.openai.models).toEqual(expect.arrayContaining(['gpt-4.1-mini', 'o4-mini']));
    expect(catalogue.anthropic.models.length).toBeGreaterThan(0);
    expect(Object.keys(catalogue).sort()).toEqual(['anthropic', 'custom', 'local', 'openai']);
  });

  it('answers 404 for an unknown agent', async () => {
    expect((await testAgent('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});
