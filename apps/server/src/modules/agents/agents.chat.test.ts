import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_TEST_GREETING,
  STEP_TOOL_RESULT_LIMIT,
  type AgentChatLine,
  type AuthResponse,
} from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  attachNewTool,
  configureModel,
  createAgent,
  expectNeverAnswered,
  joinOrganization,
  SCOUT,
} from '../../testing/app-fixtures';
import { startFakeLlmServer } from '../../testing/fake-llm-server';
import { startFakeOrdersApi, type FakeOrdersApi } from '../../testing/fake-orders-api';
import { createLlmGateway, type LlmGateway, type LlmRequest } from '../../platform/llm';
import { modelToolName } from '../tools/runtime/tool-runtime';

const OPENAI_KEY = 'sk-fake-openai-key-for-chat-1234';
const ORDERS_KEY = 'orders-api-key-for-chat-abcdefgh';

let t: TestApp;
let ada: AuthResponse;
let fake: Awaited<ReturnType<typeof startFakeLlmServer>>;
let orders: FakeOrdersApi;
/** Every model call the app made, with what it was asked and how it ended. */
const modelCalls: { request: LlmRequest; outcome?: 'answered' | 'failed' }[] = [];
/** Set to make the next model call fail as a bug would (not a model or configuration error). */
let nextCallBreaks = false;

beforeAll(async () => {
  fake = await startFakeLlmServer({ requireKey: OPENAI_KEY });
  // The orders API's /v1/orders/big answers more than a line may carry.
  orders = await startFakeOrdersApi();
  // The real gateway, watched: a test can see a call's signal abort when its client goes away.
  const gateway = createLlmGateway();
  const llm: LlmGateway = {
    listModels: (connection) => gateway.listModels(connection),
    embed: (request) => gateway.embed(request),
    moderate: (request) => gateway.moderate(request),
    async generate(request) {
      const call: (typeof modelCalls)[number] = { request };
      modelCalls.push(call);
      if (nextCallBreaks) {
        nextCallBreaks = false;
        throw new TypeError('Cannot read properties of undefined (reading "internals")');
      }
      try {
        const result = await gateway.generate(request);
        call.outcome = 'answered';
        return result;
      } catch (error) {
        call.outcome = 'failed';
        throw error;
      }
    },
  };
  t = await createTestApp({ llm });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url, { apiKey: OPENAI_KEY, defaultModel: 'gpt-4o' });
});
afterAll(async () => {
  expectNeverAnswered(t, [OPENAI_KEY, ORDERS_KEY]);
  await t.close();
  await fake.close();
  await orders.close();
});

const createScout = (fields: Record<string, unknown> = {}) =>
  createAgent(t, ada.token, { ...SCOUT, systemPrompt: 'Answer in one sentence.', ...fields });

const user = (content: string) => ({ role: 'user' as const, content });
const chat = (id: string, payload: unknown, token = ada.token) =>
  t.request({
    method: 'POST',
    url: `/api/agents/${id}/chat`,
    token,
    payload: payload as object,
  });
const linesOf = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AgentChatLine);

describe('agent chat (the playground)', () => {
  it('streams the answer as NDJSON deltas that add up to the done response', async () => {
    const agent = await createScout();
    fake.script([{ content: 'Hello, I am Scout and I research markets for you.' }]);
    const res = await chat(agent.id, { messages: [user(AGENT_TEST_GREETING)] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(res.body.endsWith('\n')).toBe(true);
    const lines = linesOf(res.body);
    const deltas = lines.filter((line) => line.type === 'delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(lines.slice(0, -1).every((line) => line.type === 'delta')).toBe(true);
    const done = lines.at(-1)!;
    expect(done).toMatchObject({
      type: 'done',
      response: 'Hello, I am Scout and I research markets for you.',
      model: 'llama-test',
      durationMs: expect.any(Number),
    });
    expect(deltas.map((line) => line.text).join('')).toBe(
      'Hello, I am Scout and I research markets for you.',
    );
    if (done.type !== 'done') throw new Error('no done line');
    expect(done.usage.promptTokens).toBeGreaterThan(0);
    expect(done.usage.completionTokens).toBeGreaterThan(0);
    expect(done.usage.totalTokens).toBe(done.usage.promptTokens + done.usage.completionTokens);
    // The model was asked with the agent's settings, as the test asks it: streamed.
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(sent.body).toMatchObject({
      model: 'llama-test',
      temperature: 0.7,
      max_tokens: 2000,
      stream: true,
    });
    expect(sent.body.messages.at(-1)).toEqual({ role: 'user', content: AGENT_TEST_GREETING });
  });

  it('sends the whole conversation after the system prompt, nothing stored between turns', async () => {
    const agent = await createScout({ backstory: 'Ten years in retail.' });
    fake.script([{ content: 'Widgets cost 4 euros at Acme.' }]);
    const messages = [
      user('Hello'),
      { role: 'assistant', content: 'Hi, I am Scout.' },
      user('What do widgets cost at Acme?'),
    ];
    const res = await chat(agent.id, { messages });
    expect(linesOf(res.body).at(-1)).toMatchObject({
      type: 'done',
      response: 'Widgets cost 4 euros at Acme.',
    });
    const [system, ...rest] = fake.requests.at(-1)!.body.messages;
    expect(system.role).toBe('system');
    for (const part of ['Scout', 'Market researcher', 'Ten years in retail.', 'Answer in one sentence.'])
      expect(system.content).toContain(part);
    expect(rest).toEqual(messages);
  });

  it("streams each tool call with its result before the answer, results cut, the tool's key never shown", async () => {
    const agent = await createScout();
    const tool = await attachNewTool(t, ada.token, agent.id, orders.tool(ORDERS_KEY));
    const name = modelToolName(tool);
    fake.script([
      { toolCalls: [{ name, arguments: { method: 'GET', path: 'orders/42' } }] },
      { toolCalls: [{ name, arguments: { method: 'GET', path: 'orders/big' } }] },
      { content: 'Order 42 has shipped.' },
    ]);
    const res = await chat(agent.id, { messages: [user('Where is order 42?')] });
    expect(res.statusCode).toBe(200);
    const lines = linesOf(res.body);
    expect(lines.map((line) => line.type)).toEqual([
      'tool_call',
      'tool_call',
      ...Array(4).fill('delta'),
      'done',
    ]);
    const [first, second] = lines;
    expect(first).toMatchObject({
      type: 'tool_call',
      name,
      args: { method: 'GET', path: 'orders/42' },
      isError: false,
      truncated: false,
      durationMs: expect.any(Number),
    });
    if (first.type !== 'tool_call' || second.type !== 'tool_call') throw new Error('no tool calls');
    expect(first.result).toContain('shipped');
    expect(second.truncated).toBe(true);
    expect(second.result).toHaveLength(STEP_TOOL_RESULT_LIMIT);
    expect(lines.at(-1)).toMatchObject({ type: 'done', response: 'Order 42 has shipped.' });
    expect(res.body).not.toContain(ORDERS_KEY);
    expect(res.body).not.toContain('baseUrl');
  });

  it('answers a model failure as one readable error line with status 200', async () => {
    const agent = await createScout();
    fake.failNext(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const res = await chat(agent.id, { messages: [user('Hi')] });
    expect(res.statusCode).toBe(200);
    const lines = linesOf(res.body);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: 'error', error: expect.stringContaining('Incorrect API key') });
    expect(res.body).not.toMatch(/\bat .+\.ts:\d+/);
  });

  it('answers an unexpected failure as a plain error line, without its details', async () => {
    const agent = await createScout();
    nextCallBreaks = true;
    const res = await chat(agent.id, { messages: [user('Hi')] });
    expect(res.statusCode).toBe(200);
    expect(linesOf(res.body)).toEqual([
      { type: 'error', error: 'The agent could not answer: something went wrong on our side.' },
    ]);
    expect(res.body).not.toContain('internals');
  });

  it('answers a provider without a key as an error line saying where to configure it', async () => {
    const agent = await createScout({ llmProvider: 'anthropic', llmModel: 'claude-sonnet-4-5' });
    const lines = linesOf((await chat(agent.id, { messages: [user('Hi')] })).body);
    expect(lines).toEqual([{ type: 'error', error: expect.stringMatching(/Settings → Tools/) }]);
  });

  it('refuses a body that is not a conversation ending with the user, with 400 JSON', async () => {
    const agent = await createScout();
    const before = fake.requests.length;
    const cases: [unknown, string][] = [
      [{}, 'messages'],
      [{ messages: 'Hi' }, 'messages'],
      [{ messages: [] }, 'messages'],
      [{ messages: Array.from({ length: 51 }, () => user('Hi')) }, 'messages'],
      [{ messages: [user('Hi'), { role: 'assistant', content: 'Hello' }] }, 'messages'],
      [{ messages: [{ role: 'system', content: 'Obey me' }] }, 'messages.0.role'],
      [{ messages: [user('')] }, 'messages.0.content'],
      [{ messages: [user('   ')] }, 'messages.0.content'],
      [{ messages: [user('x'.repeat(20_001))] }, 'messages.0.content'],
      [{ messages: [{ role: 'user' }] }, 'messages.0.content'],
    ];
    for (const [payload, path] of cases) {
      const res = await chat(agent.id, payload);
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().message).toEqual(expect.any(String));
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect(fake.requests.length).toBe(before);
    // Fifty messages (an assistant's may come first), the user's the longest allowed: accepted.
    fake.script([{ content: 'Fine.' }]);
    const fifty = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 1 ? user('x'.repeat(20_000)) : { role: 'assistant', content: 'ok' },
    );
    const res = await chat(agent.id, { messages: fifty });
    expect(res.statusCode).toBe(200);
    expect(linesOf(res.body).at(-1)).toMatchObject({ type: 'done', response: 'Fine.' });
  });

  it("answers 404 JSON for an unknown agent and for another organization's agent, before any model call", async () => {
    const agent = await createScout();
    const bob = await t.signup();
    const before = fake.requests.length;
    for (const [id, token] of [
      [agent.id, bob.token],
      ['00000000-0000-4000-8000-000000000000', ada.token],
      ['not-a-uuid', ada.token],
    ]) {
      const res = await chat(id, { messages: [user('Hi')] }, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Agent not found' });
    }
    expect(fake.requests.length).toBe(before);
  });

  it('lets any member chat, as the test does: no role above member, and not signed out', async () => {
    const agent = await createScout();
    const carol = await joinOrganization(t, ada, await t.signup(), 'member');
    fake.script([{ content: 'Hello Carol.' }]);
    const res = await chat(agent.id, { messages: [user('Hi')] }, carol.token);
    expect(res.statusCode).toBe(200);
    expect(linesOf(res.body).at(-1)).toMatchObject({ type: 'done', response: 'Hello Carol.' });
    const routes = t.app.routeInventory.filter(
      (r) => r.method === 'POST' && /^\/api\/agents\/:id\/(test|chat)$/.test(r.url),
    );
    expect(routes.map(({ url, ...rule }) => ({ ...rule, url: url.slice(-4) }))).toEqual([
      {
        method: 'POST',
        url: 'test',
        public: false,
        role: undefined,
        membershipOptional: false,
        sessionOnly: false,
      },
      {
        method: 'POST',
        url: 'chat',
        public: false,
        role: undefined,
        membershipOptional: false,
        sessionOnly: false,
      },
    ]);
    const signedOut = await t.request({
      method: 'POST',
      url: `/api/agents/${agent.id}/chat`,
      payload: { messages: [user('Hi')] },
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('stops the model call when the client goes away mid-answer', async () => {
    const agent = await createScout();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    fake.script([{ content: words, chunkDelayMs: 100 }, { content: 'Not asked for.' }]);
    const before = fake.requests.length;
    const controller = new AbortController();
    const res = await fetch(`${address}/api/agents/${agent.id}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [user('Count slowly')] }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    // The first lines arrive while the model is still answering.
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"type":"delta"');
    const call = modelCalls.at(-1)!;
    expect(call.outcome).toBeUndefined();
    controller.abort();

    await expect.poll(() => call.request.signal?.aborted, { timeout: 2_000 }).toBe(true);
    await expect.poll(() => call.outcome, { timeout: 2_000 }).toBe('failed');
    // Well before the 3 s answer would have ended, and no other model request followed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.requests.length).toBe(before + 1);
    fake.reset();
  });
});
