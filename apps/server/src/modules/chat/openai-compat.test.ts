import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import OpenAI, {
  APIError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  RateLimitError,
} from 'openai';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { configureModel, createAgent, createChainWorkflow } from '../../testing/app-fixtures';

/*
 * The OpenAI-compatible endpoint (docs/product-rules.md, Chat apps): the official `openai` SDK
 * calling /v1 on the app listening on a real port, with a worker in the process running the chat
 * apps' runs on the fake model.
 */

let t: TestApp;
let fake: FakeLlmServer;
let base = '';
let ada: AuthResponse;
let adaKey = { id: '', key: '' };
let other: AuthResponse;
let otherKey = { id: '', key: '' };
let helpdesk = '';

async function newKey(account: AuthResponse) {
  const res = await t.request({
    method: 'POST',
    url: `/api/organizations/${account.organization.id}/api-keys`,
    token: account.token,
    payload: { name: 'OpenAI SDK' },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; key: string };
}

/** A new active workflow of one agent, published as the chat app at `slug`. */
async function chatApp(account: AuthResponse, slug: string, fields: object = {}) {
  const agent = await createAgent(t, account.token, { name: `${slug} agent` });
  const workflowId = await createChainWorkflow(t, account.token, slug, [agent.id]);
  const res = await t.request({
    method: 'PUT',
    url: `/api/workflows/${workflowId}/publishing`,
    token: account.token,
    payload: { chat: { enabled: true, slug, name: slug, access: 'members', ...fields } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return workflowId;
}

const client = (apiKey = adaKey.key, maxRetries = 0) =>
  new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries });

const runsOf = async (workflowId: string) =>
  (
    await t.database.pool.query<{ id: string }>('SELECT id FROM workflow_executions WHERE workflow_id = $1', [
      workflowId,
    ])
  ).rows;

async function runOf(runId: string) {
  const res = await t.request({ method: 'GET', url: `/api/executions/${runId}`, token: ada.token });
  expect(res.statusCode).toBe(200);
  return res.json() as Execution;
}

/** What the SDK throws for the call (it must throw). */
async function refusal(call: Promise<unknown>): Promise<APIError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(APIError);
  return error as APIError;
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
  other = await t.signup();
  adaKey = await newKey(ada);
  otherKey = await newKey(other);
  await configureModel(t, ada.token, fake.url);
  await configureModel(t, other.token, fake.url);
  helpdesk = await chatApp(ada, 'helpdesk');
  await chatApp(other, 'theirs');
}, 60_000);

afterEach(() => fake.reset());

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('POST /v1/chat/completions', () => {
  it("answers the workflow's reply and its tokens, as a trusted chat run of the key's member carrying the history", async () => {
    fake.script([{ content: 'Sunny in Paris' }]);
    const { data, response } = await client()
      .chat.completions.create({
        model: 'helpdesk',
        messages: [
          { role: 'system', content: 'Answer in French' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello! How can I help?' },
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        ],
        temperature: 0.2,
        user: 'someone',
      })
      .withResponse();

    const runId = response.headers.get('x-crewline-run-id')!;
    expect(data.id).toBe(`chatcmpl-${runId}`);
    expect(data.model).toBe('helpdesk');
    expect(data.choices[0].message.content).toBe('Sunny in Paris');
    expect(data.choices[0].finish_reason).toBe('stop');
    // The fake counts words: three of them in the reply, and the prompt's in the prompt.
    expect(data.usage?.completion_tokens).toBe(3);
    expect(data.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(data.usage?.total_tokens).toBe(data.usage!.prompt_tokens + 3);

    const run = await runOf(runId);
    expect(run).toMatchObject({
      workflowId: helpdesk,
      trigger: 'chat',
      triggerDetail: 'API',
      triggeredBy: ada.user.id,
      untrusted: false,
    });
    expect(run.input).toEqual({
      message: 'Weather in Paris?',
      history: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! How can I help?' },
      ],
      threadId: null,
      visitor: { id: `api-key:${adaKey.id}`, member: true },
    });
    // The system message is not the workflow's: its agent never sees it.
    expect(JSON.stringify(fake.requests.map((r) => r.body))).not.toContain('Answer in French');
  });

  it('streams the reply as chunks that join to it, then the end and the usage', async () => {
    const reply = 'Rain all day long in Bergen, take a coat';
    fake.script([{ content: reply, chunkDelayMs: 40 }]);
    const stream = await client().chat.completions.create({
      model: 'helpdesk',
      messages: [{ role: 'user', content: 'Bergen?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    const finishes: (string | null)[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices) {
        if (choice.delta.content) pieces.push(choice.delta.content);
        finishes.push(choice.finish_reason);
      }
    }
    expect(pieces.join('')).toBe(reply);
    // It streamed as the model wrote, not all at the end.
    expect(pieces.length).toBeGreaterThan(1);
    expect(finishes.at(-1)).toBe('stop');
    expect(usage?.completion_tokens).toBe(9);
  });

  it('answers a failed run 502 without a retry (one run), and in a stream as an error', async () => {
    const before = (await runsOf(helpdesk)).length;
    fake.script([{ error: { status: 400, message: 'The model rejected the request' } }]);
    // The SDK's default retries: the answer tells it not to.
    const error = await refusal(
      client(adaKey.key, 2).chat.completions.create({
        model: 'helpdesk',
        messages: [{ role: 'user', content: 'Fail please' }],
      }),
    );
    expect(error.status).toBe(502);
    expect(error.code).toBe('run_failed');
    expect(error.type).toBe('server_error');
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect((await runsOf(helpdesk)).length).toBe(before + 1);

    fake.script([{ error: { status: 400, message: 'The model rejected the request' } }]);
    const stream = await client().chat.completions.create({
      model: 'helpdesk',
      messages: [{ role: 'user', content: 'Fail again' }],
      stream: true,
    });
    const streamed = await refusal(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    );
    expect(streamed.code).toBe('run_failed');
  });

  it("answers another organization's app, an unknown one and a switched-off one 404 model_not_found", async () => {
    const theirs = await refusal(
      client(otherKey.key).chat.completions.create({
        model: 'helpdesk',
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    );
    expect(theirs).toBeInstanceOf(NotFoundError);
    expect(theirs.code).toBe('model_not_found');
    expect(theirs.param).toBe('model');

    await chatApp(ada, 'closed', { enabled: false });
    for (const model of ['closed', 'nothing-here']) {
      const error = await refusal(
        client().chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(error).toBeInstanceOf(NotFoundError);
    }
  });

  it('refuses a bad key 401, and the app past its rate limit 429 with Retry-After', async () => {
    for (const key of ['crw_not-a-key', 'sk-openai']) {
      const error = await refusal(client(key).models.list());
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.type).toBe('authentication_error');
    }

    const strict = await chatApp(ada, 'strict', { rateLimitPerMinute: 1 });
    fake.script([{ content: 'First' }]);
    const messages = [{ role: 'user' as const, content: 'Once' }];
    await client().chat.completions.create({ model: 'strict', messages });
    const error = await refusal(client().chat.completions.create({ model: 'strict', messages }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
    expect((await runsOf(strict)).length).toBe(1);
  });

  it('refuses what it cannot answer 400, naming the param', async () => {
    const lastNotUser = await refusal(
      client().chat.completions.create({
        model: 'helpdesk',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
      }),
    );
    expect(lastNotUser).toBeInstanceOf(BadRequestError);
    expect(lastNotUser.param).toBe('messages.[1].role');

    const image = await refusal(
      client().chat.completions.create({
        model: 'helpdesk',
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
        ],
      }),
    );
    expect(image).toBeInstanceOf(BadRequestError);
    expect(image.param).toBe('messages.[0].content');
    expect(image.type).toBe('invalid_request_error');
  });
});

describe('hostile requests', () => {
  it("answers in OpenAI's error shape: no key 401, malformed JSON 400, a body over 1 MiB 413", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const bearer = { authorization: `Bearer ${adaKey.key}` };
    const cases = [
      [await post('{}'), 401, 'authentication_error'],
      [await post('{"model": ', bearer), 400, 'invalid_request_error'],
      [await post(JSON.stringify({ model: 'x'.repeat(1024 * 1024) }), bearer), 413, 'invalid_request_error'],
    ] as const;
    for (const [res, status, type] of cases) {
      expect(res.status).toBe(status);
      const body = (await res.json()) as { error: Record<string, unknown> };
      expect(body.error).toMatchObject({ type });
      expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    }
  });
});

describe('GET /v1/models', () => {
  it("lists the organization's apps that answer, not another organization's, with the usual headers", async () => {
    const ids = (await client().models.list()).data.map((model) => model.id);
    expect(ids).toContain('helpdesk');
    expect(ids).not.toContain('theirs');
    expect(ids).not.toContain('closed');
    expect((await client(otherKey.key).models.list()).data.map((model) => model.id)).toEqual(['theirs']);

    const model = await client().models.retrieve('helpdesk');
    expect(model).toMatchObject({ id: 'helpdesk', object: 'model', owned_by: 'crewline' });
    expect(model.created).toBeGreaterThan(1_700_000_000);
    expect(await refusal(client().models.retrieve('theirs'))).toBeInstanceOf(NotFoundError);

    const res = await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${adaKey.key}` } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
