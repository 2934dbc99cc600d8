import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../platform/crypto';
import { createEgress } from '../../../platform/egress';
import { createLlmGateway } from '../../../platform/llm';
import { startFakeLlmServer } from '../../../testing/fake-llm-server';
import { testConfig } from '../../../testing/test-config';
import type { ResolvedTool } from '../tools.service';
import { resolvedTool, TOOL_ORGANIZATION_ID } from '../../../testing/resolved-tool';
import { createToolRuntime, modelToolName } from './tool-runtime';

// A stand-in for SendGrid and for a customer's webhook: records what it was sent. Under /echo it
// answers with the request's headers, and under /refuse SendGrid refuses, quoting the credential.
let server: http.Server;
let base: string;
let received: { method?: string; url?: string; auth?: string; body: string }[] = [];
let fake: Awaited<ReturnType<typeof startFakeLlmServer>>;
// A host no admin set (reachable through the allow-list like any): what reaches it, by Authorization.
let attacker: http.Server;
let attackerUrl: string;
let attackerSeen: (string | undefined)[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
      if (req.url?.startsWith('/echo')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ url: req.url, headers: req.headers }));
      }
      if (req.url?.startsWith('/refuse')) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ errors: [{ message: `Invalid key: ${req.headers.authorization}` }] }),
        );
      }
      res.writeHead(req.url === '/v3/mail/send' ? 202 : 200, { 'content-type': 'application/json' });
      res.end(req.url === '/v3/mail/send' ? '' : JSON.stringify({ echoed: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake = await startFakeLlmServer();
  attacker = http.createServer((req, res) => {
    attackerSeen.push(req.headers.authorization);
    req.resume();
    res.writeHead(202).end();
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => attacker.close(resolve));
  await fake.close();
});
beforeEach(() => {
  received = [];
  attackerSeen = [];
});

const organizationId = TOOL_ORGANIZATION_ID;
const llm = createLlmGateway({ maxRetries: 0 });

function runtime(sendgrid?: Record<string, unknown>, providerKey = 'k') {
  return createToolRuntime({
    config: testConfig(),
    egress: createEgress({ allowList: ['127.0.0.1'] }).for('tool'),
    llm,
    connectionFor: async (_organizationId, provider) => ({
      provider,
      apiKey: providerKey,
      baseUrl: fake.url,
    }),
    sendgridSettings: async () => sendgrid,
  });
}

function tool(
  category: ResolvedTool['category'],
  settings: Record<string, unknown>,
  name = 'My Tool',
  linkConfig: Record<string, unknown> = {},
): ResolvedTool {
  return resolvedTool({ category, name, settings, linkConfig });
}

async function only(
  category: ResolvedTool['category'],
  settings: Record<string, unknown>,
  sendgrid?: Record<string, unknown>,
) {
  const built = await runtime(sendgrid).modelTools(organizationId, [tool(category, settings)]);
  return Object.values(built)[0];
}

describe('tool runtime', () => {
  it('names model tools within the providers’ rules', () => {
    const name = modelToolName({ name: 'Orders API (EU) — v2', id: '22222222-2222-4222-8222-222222222222' });
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(name).toBe('orders_api_eu_v2_22222222');
  });

  it('POSTs a custom tool’s arguments as JSON to its URL', async () => {
    const custom = await only('custom', { url: `${base}/hooks/lookup`, apiKey: 'hook-key' });
    const result = await custom.execute({ customer: 'ACME', limit: 3 });
    expect(received).toEqual([
      {
        method: 'POST',
        url: '/hooks/lookup',
        auth: 'Bearer hook-key',
        body: '{"customer":"ACME","limit":3}',
      },
    ]);
    expect(result).toEqual({ status: 200, body: { echoed: { customer: 'ACME', limit: 3 } } });
  });

  it('keeps an HTTP tool under its base URL', async () => {
    const api = await only('api', { baseUrl: `${base}/v1` });
    await expect(api.execute({ path: '../admin' })).rejects.toThrow(/must stay under/);
    await expect(api.execute({ path: 'http://10.0.0.1/' })).rejects.toThrow(/must stay under/);
    expect(received).toEqual([]);
    await api.execute({ method: 'POST', path: 'items', body: { a: 1 } });
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v1/items', body: '{"a":1}' });
  });

  it('refuses private destinations the allow-list does not name', async () => {
    const strict = createToolRuntime({
      config: testConfig(),
      egress: createEgress().for('tool'),
      llm,
      connectionFor: async (_organizationId, provider) => ({ provider }),
      sendgridSettings: async () => undefined,
    });
    const [built] = Object.values(
      await strict.modelTools(organizationId, [tool('custom', { url: `${base}/x` })]),
    );
    await expect(built.execute({})).rejects.toThrow('Destination not allowed');
    expect(received).toEqual([]);
  });

  it('sends email through the organization’s SendGrid connection', async () => {
    const email = await only(
      'communication',
      {},
      { apiKey: 'SG.key', fromEmail: 'bot@acme.test', fromName: 'Acme Bot', baseUrl: base },
    );
    const result = await email.execute({ to: 'ops@acme.test', subject: 'Daily report', text: 'All green.' });
    expect(result).toEqual({ sent: true, recipients: 1 });
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v3/mail/send', auth: 'Bearer SG.key' });
    expect(JSON.parse(received[0].body)).toEqual({
      personalizations: [{ to: [{ email: 'ops@acme.test' }] }],
      from: { email: 'bot@acme.test', name: 'Acme Bot' },
      subject: 'Daily report',
      content: [{ type: 'text/plain', value: 'All green.' }],
    });
  });

  describe('credentials stay with the destination they were set for', () => {
    const ORG_KEY = 'SG.org-key-CANARY-3b8e1d';
    const TOOL_KEY = 'SG.tool-key-9c2f7a';
    const orgSendgrid = () => ({
      apiKey: ORG_KEY,
      fromEmail: 'bot@acme.test',
      fromName: 'Acme',
      baseUrl: base,
    });
    const sendOne = (email: { execute: (args: unknown) => Promise<unknown> }) =>
      email.execute({ to: 'ops@acme.test', subject: 's', text: 't' });

    it('the organization’s SendGrid key goes only to the organization’s address, with its sender', async () => {
      const email = await only(
        'communication',
        { baseUrl: attackerUrl, fromEmail: 'ceo@acme.test', fromName: 'The CEO' },
        orgSendgrid(),
      );
      await sendOne(email);
      expect(attackerSeen).toEqual([]);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ url: '/v3/mail/send', auth: `Bearer ${ORG_KEY}` });
      expect(JSON.parse(received[0].body).from).toEqual({ email: 'bot@acme.test', name: 'Acme' });
    });

    it('a tool with its own key sends it to its own address, never the organization’s key', async () => {
      const email = await only('communication', { apiKey: TOOL_KEY, baseUrl: attackerUrl }, orgSendgrid());
      await sendOne(email);
      expect(received).toEqual([]);
      expect(attackerSeen).toEqual([`Bearer ${TOOL_KEY}`]);
    });

    it('a link’s config never changes the destination, headers or credentials', async () => {
      const linked = (category: ResolvedTool['category'], settings: Record<string, unknown>) =>
        runtime(orgSendgrid()).modelTools(organizationId, [
          tool(category, settings, 'Linked', {
            baseUrl: attackerUrl,
            url: attackerUrl,
            authHeader: 'X-Leak',
            apiKey: 'link-key',
            units: 'metric',
          }),
        ]);
      const [api] = Object.values(await linked('api', { baseUrl: base, apiKey: 'tool-key' }));
      await api.execute({ path: 'items' });
      const [custom] = Object.values(await linked('custom', { url: `${base}/hook`, apiKey: 'tool-key' }));
      await custom.execute({ a: 1 });
      const [email] = Object.values(await linked('communication', {}));
      await sendOne(email);
      expect(attackerSeen).toEqual([]);
      expect(received.map((r) => [r.url, r.auth])).toEqual([
        ['/items', 'Bearer tool-key'],
        ['/hook', 'Bearer tool-key'],
        ['/v3/mail/send', `Bearer ${ORG_KEY}`],
      ]);
    });
  });

  it('says where to configure email when there is no SendGrid connection', async () => {
    const email = await only('communication', {});
    await expect(email.execute({ to: 'a@b.co', subject: 's', text: 't' })).rejects.toThrow(
      /Settings → Tools/,
    );
    expect(received).toEqual([]);
  });

  it('asks another model through an AI tool', async () => {
    fake.script([{ content: 'Paris.' }]);
    const ai = await only('ai', { provider: 'custom', model: 'helper-model' });
    const result = (await ai.execute({ prompt: 'Capital of France?' })) as { answer: string; model: string };
    expect(result.answer).toBe('Paris.');
    const sent = fake.requests.at(-1)!;
    expect(sent.body.model).toBe('helper-model');
    expect(sent.body.messages.at(-1)).toEqual({ role: 'user', content: 'Capital of France?' });
  });

  describe('masks credentials in what tools give back', () => {
    const KEY = 'api-key-CANARY-7f3c9a1e5b';

    it('in an echo of the Authorization header, deep in the JSON and in keys', async () => {
      const api = await only('api', { baseUrl: `${base}/echo`, apiKey: KEY });
      const result = await api.execute({ path: `items?q=${encodeURIComponent(KEY)}` });
      expect(received.at(-1)?.auth).toBe(`Bearer ${KEY}`); // the endpoint did get the key
      expect(JSON.stringify(result)).not.toContain(KEY);
      expect(result).toMatchObject({
        status: 200,
        body: { url: `/echo/items?q=${SECRET_MASK}`, headers: { authorization: `Bearer ${SECRET_MASK}` } },
      });
    });

    it('in an echo of a custom header', async () => {
      const [api] = Object.values(
        await runtime().modelTools(organizationId, [
          tool('api', { baseUrl: `${base}/echo`, authHeader: 'X-Api-Key', apiKey: KEY }, 'Echo'),
        ]),
      );
      const result = (await api.execute({ path: 'x' })) as { body: { headers: Record<string, string> } };
      expect(result.body.headers['x-api-key']).toBe(SECRET_MASK);
      expect(JSON.stringify(result)).not.toContain(KEY);
    });

    it('in an error that quotes the SendGrid key', async () => {
      const email = await only(
        'communication',
        {},
        { apiKey: KEY, fromEmail: 'bot@acme.test', baseUrl: `${base}/refuse` },
      );
      const error = await email.execute({ to: 'a@b.co', subject: 's', text: 't' }).catch((e: Error) => e);
      expect(received.at(-1)?.auth).toBe(`Bearer ${KEY}`);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(`Invalid key: Bearer ${SECRET_MASK}`);
      expect(`${(error as Error).message} ${(error as Error).stack}`).not.toContain(KEY);
    });

    it("in an AI tool's answer that repeats the provider key", async () => {
      fake.script([{ content: `My key is ${KEY}.` }]);
      const [ai] = Object.values(
        await runtime(undefined, KEY).modelTools(organizationId, [
          tool('ai', { provider: 'custom', model: 'm' }),
        ]),
      );
      const result = (await ai.execute({ prompt: 'What is your key?' })) as { answer: string };
      expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(result.answer).toBe(`My key is ${SECRET_MASK}.`);
    });

    it('leaves results alone when nothing in them is a credential', async () => {
      const custom = await only('custom', { url: `${base}/hooks/lookup`, apiKey: KEY });
      expect(await custom.execute({ customer: 'ACME' })).toEqual({
        status: 200,
        body: { echoed: { customer: 'ACME' } },
      });
    });
  });

  describe('called directly, as a workflow’s Tool step', () => {
    const KEY = 'api-key-CANARY-7f3c9a1e5b';
    const lookup = (fields: Partial<ResolvedTool> = {}) =>
      resolvedTool({
        category: 'custom',
        name: 'Lookup',
        settings: {
          url: `${base}/hooks/lookup`,
          apiKey: KEY,
          inputSchema: {
            type: 'object',
            properties: { customer: { type: 'string' }, limit: { type: 'integer' } },
            required: ['customer'],
            additionalProperties: false,
          },
        },
        ...fields,
      });

    it('sends the arguments as they are and answers the API’s body', async () => {
      const result = await runtime().call(organizationId, lookup(), { customer: 'ACME', limit: 3 });
      expect(received).toEqual([
        {
          method: 'POST',
          url: '/hooks/lookup',
          auth: `Bearer ${KEY}`,
          body: '{"customer":"ACME","limit":3}',
        },
      ]);
      expect(result).toEqual({ echoed: { customer: 'ACME', limit: 3 } });
    });

    it('names the argument that does not fit the tool’s input schema, and calls nothing', async () => {
      const call = (args: Record<string, unknown>) => runtime().call(organizationId, lookup(), args);
      await expect(call({ customer: 'ACME', limit: '3' })).rejects.toThrow(
        'the argument "limit" must be integer (it was "3")',
      );
      await expect(call({ limit: 3 })).rejects.toThrow('the argument "customer" is required');
      await expect(call({ customer: 'ACME', page: 2 })).rejects.toThrow(
        'the tool takes no argument "page" (it takes "customer", "limit")',
      );
      expect(received).toEqual([]);
    });

    it('checks an API tool’s arguments against its own schema', async () => {
      const api = resolvedTool({ category: 'api', name: 'Orders', settings: { baseUrl: `${base}/v1` } });
      await expect(runtime().call(organizationId, api, { path: 'x', method: 'FETCH' })).rejects.toThrow(
        'the argument "method" must be one of "GET", "POST", "PUT", "PATCH", "DELETE" (it was "FETCH")',
      );
      expect(await runtime().call(organizationId, api, { path: 'orders/7' })).toEqual({ echoed: null });
      expect(received).toMatchObject([{ method: 'GET', url: '/v1/orders/7' }]);
    });

    it('fails on an error status, quoting the API with its credentials masked', async () => {
      const api = resolvedTool({ category: 'api', settings: { baseUrl: `${base}/refuse`, apiKey: KEY } });
      const error = await runtime()
        .call(organizationId, api, { path: 'x' })
        .catch((e: Error) => e);
      expect(received.at(-1)?.auth).toBe(`Bearer ${KEY}`);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `the API answered HTTP 401: {"errors":[{"message":"Invalid key: Bearer ${SECRET_MASK}"}]}`,
      );
    });

    it('refuses an inactive tool without calling it', async () => {
      await expect(
        runtime().call(organizationId, lookup({ isActive: false }), { customer: 'ACME' }),
      ).rejects.toThrow('the tool "Lookup" is inactive');
      expect(received).toEqual([]);
    });

    it('stops with the run’s abort signal', async () => {
      const abort = new AbortController();
      abort.abort(new Error('cancelled'));
      await expect(
        runtime().call(organizationId, lookup(), { customer: 'ACME' }, { signal: abort.signal }),
      ).rejects.toThrow();
      expect(received).toEqual([]);
    });
  });

  describe('vector stores', () => {
    const searches: unknown[][] = [];
    const withKnowledge = () =>
      createToolRuntime({
        config: testConfig(),
        egress: createEgress({ allowList: ['127.0.0.1'] }).for('tool'),
        llm,
        connectionFor: async (_organizationId, provider) => ({ provider, apiKey: 'k', baseUrl: fake.url }),
        sendgridSettings: async () => undefined,
        async knowledgeSearch(...args) {
          searches.push(args.slice(0, 4));
          return {
            hits: [
              {
                documentId: 'd1',
                documentName: 'pricing.md',
                chunkIndex: 2,
                text: 'Acme costs 4 EUR.',
                score: 0.91,
              },
            ],
          };
        },
      });

    it('offers the organization’s knowledge base as search_<name>, searched for the organization', async () => {
      const built = await withKnowledge().modelTools(organizationId, [
        tool('vector_store', { knowledgeBaseId: 'kb-1' }, 'Price Notes'),
      ]);
      expect(Object.keys(built)).toEqual(['search_price_notes_22222222']);
      const search = built.search_price_notes_22222222;
      expect(search.inputSchema).toMatchObject({ required: ['query'] });
      expect(await search.execute({ query: 'acme price' })).toEqual({
        query: 'acme price',
        hits: [{ source: 'pricing.md', passage: 3, score: 0.91, text: 'Acme costs 4 EUR.' }],
      });
      await search.execute({ query: 'acme', topK: 2 });
      expect(searches).toEqual([
        [organizationId, 'kb-1', 'acme price', 5],
        [organizationId, 'kb-1', 'acme', 2],
      ]);
      await expect(search.execute({ query: '' })).rejects.toThrow();
      await expect(search.execute({ query: 'x', topK: 500 })).rejects.toThrow();
    });

    it('does not offer a store it cannot search: no knowledge base chosen (a Pinecone index, for now)', async () => {
      const built = await withKnowledge().modelTools(organizationId, [
        tool('vector_store', { indexName: 'docs', dimensions: 1536 }),
      ]);
      expect(built).toEqual({});
      expect(
        await runtime().modelTools(organizationId, [tool('vector_store', { knowledgeBaseId: 'kb' })]),
      ).toEqual({});
    });
  });
});
