import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from './testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server';
import { startFakeMicrosoftServer, type FakeMicrosoftServer } from './testing/fake-microsoft-server';
import { chainOf } from './testing/workflow-shapes';

/*
 * Every /api route of the route table × hostile input, sent as a signed-in user whose organization has a
 * real agent, tool, tool link, tool configuration, active workflow and execution (so requests reach the
 * services and the database, not just a 404). Whatever arrives, the answer is below 500 and JSON: a
 * `{ message }` error, or a 2xx. The app runs with a worker and the fake model server, so an execute
 * is really queued and run (without a queue it would answer 503 before storing anything).
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Route = { method: Method; url: string };
type Case = { label: string; method: Method; url: string; body?: string; contentType?: string };

const nest = (levels: number, open = '[', close = ']') => `${open.repeat(levels)}${close.repeat(levels)}`;
const nestObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const LONG = 'x'.repeat(900_000); // within the 1 MiB body limit

/** Raw JSON text, so values JSON.stringify cannot write (1e400, lone surrogates, __proto__) travel as sent. */
const hostileValues: Record<string, string> = {
  NUL: '"a\\u0000b"',
  'NUL nested': '{"a":["ok",{"b":"\\u0000"}]}',
  'NUL key': '{"a\\u0000":1}',
  '1e308': '1e308',
  '1e400': '1e400',
  '-1e400': '-1e400',
  '2^64': '18446744073709551616',
  '-2^63-1': '-9223372036854775809',
  '1e12': '1000000000000',
  '-0': '-0',
  '0.5': '0.5',
  string: '"text"',
  'numeric string': '"123"',
  'empty string': '""',
  true: 'true',
  null: 'null',
  array: '[]',
  'array of junk': '[null,1,"a",{},[]]',
  object: '{}',
  __proto__: '{"__proto__":{"isAdmin":true}}',
  'constructor.prototype': '{"constructor":{"prototype":{"isAdmin":true}}}',
  'prototype keys': '{"prototype":{"a":1},"constructor":"x","toString":1,"hasOwnProperty":"y"}',
  'lone high surrogate': '"\\ud800"',
  'lone low surrogate': '"x\\udc00y"',
  'U+FFFF': '"\\uffff"',
  'RTL override': '"\\u202etxt.exe"',
  'combining marks': `"e${'\\u0301'.repeat(300)}"`,
  '4-byte emoji': '"😀👩‍👩‍👧🏳️‍🌈"',
  'control characters': '"\\u0001\\u001f\\u007f\\u0085\\u2028"',
  '65 levels': nest(65),
  'UUID-shaped': '"00000000-0000-4000-8000-000000000000"',
};
/** Only at the top level of a body: long enough to matter, cheap enough to send to every route. */
const topLevelValues: Record<string, string> = {
  'very long string': `"${LONG}"`,
  '6000 levels of arrays': nest(6000),
  '6000 levels of objects': nestObjects(6000),
};

/** Members added to every object of a body, next to its valid fields. */
const hostileMembers: Record<string, string> = {
  '__proto__ member': '"__proto__":{"isAdmin":true}',
  'constructor.prototype member': '"constructor":{"prototype":{"isAdmin":true}}',
  'prototype member': '"prototype":{"isAdmin":true}',
  'constructor member': '"constructor":"x"',
  'toString member': '"toString":1',
  'NUL key member': '"a\\u0000":1',
  'lone surrogate key member': '"\\ud800":1',
  'organizationId member': '"organizationId":"00000000-0000-4000-8000-000000000000"',
};

/** Whole bodies, whatever the route expects. */
const hostileBodies: Record<string, string> = {
  null: 'null',
  true: 'true',
  number: '123',
  '1e400': '1e400',
  string: '"text"',
  array: '[]',
  'array of objects': '[{}]',
  'empty object': '{}',
  'NUL top-level value': '{"name":"\\u0000"}',
  'NUL top-level key': '{"\\u0000":1}',
  'NUL nested': '{"config":{"a":{"b":"\\u0000"}},"input":{"q":"\\u0000"}}',
  __proto__: '{"__proto__":{"isAdmin":true}}',
  'constructor.prototype': '{"constructor":{"prototype":{"isAdmin":true}}}',
  'duplicate keys': '{"name":"a","name":"\\u0000"}',
  '65 levels of arrays': nest(65),
  '65 levels of objects': nestObjects(65),
  '6000 levels of arrays': nest(6000),
  '6000 levels of objects': nestObjects(6000),
  '6000 unclosed brackets': '['.repeat(6000),
  'brackets inside strings': `{"name":"${'['.repeat(6000)}"}`,
  malformed: '{"name":',
  BOM: '\ufeff{}',
  empty: '',
  whitespace: '  \n ',
  'huge array': `[${'1,'.repeat(200_000)}1]`,
  'very long string': `"${LONG}"`,
};

const contentTypes: { label: string; contentType?: string; body: string }[] = [
  { label: 'text/plain', contentType: 'text/plain', body: 'hello' },
  { label: 'text/plain with NUL', contentType: 'text/plain', body: 'a\u0000b' },
  { label: 'form', contentType: 'application/x-www-form-urlencoded', body: 'name=a&role=b' },
  { label: 'multipart', contentType: 'multipart/form-data; boundary=x', body: '--x--' },
  { label: 'xml', contentType: 'application/xml', body: '<a/>' },
  { label: 'json charset utf-16', contentType: 'application/json; charset=utf-16', body: '{}' },
  { label: 'json with bad parameter', contentType: 'application/json; =', body: '{}' },
  { label: 'vendor json', contentType: 'application/vnd.api+json', body: '{}' },
  { label: 'no content type', body: '{}' },
];

const hostileQueries = [
  'q=%00',
  'limit=%00',
  'limit=1e400',
  'limit=-0',
  'limit=99999999999999999999',
  'limit=1&limit=2',
  'limit[]=1',
  'workflowId=%00',
  'workflowId=not-a-uuid',
  'workflowId=00000000-0000-4000-8000-000000000000',
  'days=%00',
  'days=1e400',
  'tz=%ED%A0%80',
  'tz=Europe%2FParis%00',
  `tz=${'A'.repeat(5000)}`,
  '__proto__[isAdmin]=1',
  'constructor[prototype][isAdmin]=1',
  '%00=1',
  'a=%F0%9F%98%80%E2%80%AE',
  'a=%',
  'token=x',
];

const hostileIds = [
  '%00',
  'a%00b',
  'not-a-uuid',
  '00000000-0000-4000-8000-000000000000',
  'a'.repeat(90),
  'a'.repeat(5000),
  '%ED%A0%80',
  '%F0%9F%98%80',
  '..%2F..%2Fetc%2Fpasswd',
  '%25%30%30',
  '1e400',
  '-0',
  '__proto__',
  'constructor',
];

let t: TestApp;
let fake: FakeLlmServer;
let fakeMicrosoft: FakeMicrosoftServer;
let ada: AuthResponse;
/** Signs in on the login route's cases, so failed logins there never lock out ada. */
let loginUser: AuthResponse;
const real: Record<string, string> = {};

/** A memory of the agent, stored as a run would store it (the fuzz runs no agent). */
async function rememberOne(agentId: string): Promise<string> {
  await t.services.memory.remember(
    {
      organizationId: real.org,
      agentId,
      executionId: null,
      settings: { embeddingProvider: 'openai', embeddingModel: 'text-embedding-3-small' },
      connection: await t.services.connections.connectionFor(real.org, 'openai'),
    },
    { task: 'Check in', answer: 'Done' },
    async () => ({
      text: 'The guest drinks tea',
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    }),
  );
  return (await t.services.memory.list(real.org, agentId)).memories[0].id;
}
let baseBodies: Record<string, object[]>;

let signups = 0;

async function send(c: Case, token = ada.token): Promise<LightMyRequestResponse> {
  // A fresh username and email each time, so a signup reaches the insert instead of 'already taken'.
  const body = c.url.startsWith('/api/auth/signup')
    ? c.body?.replaceAll('fuzzer', `fuzzer${++signups}`)
    : c.body;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (c.contentType) headers['content-type'] = c.contentType;
  return t.app.inject({ method: c.method, url: c.url, headers, payload: body });
}

async function create(url: string, payload: unknown): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${ada.token}` },
    payload: payload as object,
  });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  // Microsoft 365 configured, so its routes reach the service instead of answering 503.
  fakeMicrosoft = await startFakeMicrosoftServer();
  t = await createTestApp({
    worker: true,
    config: {
      microsoft: {
        clientId: fakeMicrosoft.clientId,
        clientSecret: fakeMicrosoft.clientSecret,
        tenant: 'common',
        authorityHost: fakeMicrosoft.url,
        graphUrl: fakeMicrosoft.graphUrl,
        pollSeconds: 60,
      },
    },
  });
  ada = await t.signup();
  loginUser = await t.signup();
  const configured = await t.app.inject({
    method: 'PUT',
    url: '/api/tools/configurations/openai_config',
    headers: { authorization: `Bearer ${ada.token}` },
    payload: { config: { apiKey: 'sk-test', baseUrl: fake.url, defaultModel: 'gpt-4o' } },
  });
  expect(configured.statusCode).toBe(200);
  real.agent = await create('/api/agents', { name: 'Fuzz', role: 'R', goal: 'G', status: 'active' });
  real.tool = await create('/api/tools', { name: 'Fuzz tool', category: 'api', config: { apiKey: 'k' } });
  await create(`/api/agents/${real.agent}/tools/${real.tool}`, { config: {} });
  real.workflow = await create('/api/workflows', {
    name: 'Fuzz flow',
    status: 'active',
    ...chainOf([real.agent]),
  });
  real.execution = await create(`/api/workflows/${real.workflow}/execute`, { input: { q: 'hi' } });
  real.org = ada.organization.id;
  real.user = ada.user.id;
  // An invitation to someone else: ada's accept answers 403, the preview reaches the database.
  const invited = await t.app.inject({
    method: 'POST',
    url: `/api/organizations/${real.org}/invitations`,
    headers: { authorization: `Bearer ${ada.token}` },
    payload: { email: 'fuzz-invitee@example.com', role: 'member' },
  });
  expect(invited.statusCode).toBe(201);
  real.invitation = invited.json().id;
  real.invitationToken = invited.json().token;
  real.configuration = 'openai_config';
  const library = (await t.request({ method: 'GET', url: '/api/templates', token: ada.token })).json();
  real.apiKey = (
    await t.request({
      method: 'POST',
      url: `/api/organizations/${real.org}/api-keys`,
      token: ada.token,
      payload: { name: 'Fuzz key' },
    })
  ).json().id;
  real.approval = '0b6c5e1e-3f5a-4c43-9d59-8a1f2f6d7e10';
  real.knowledgeBase = await create('/api/knowledge-bases', { name: 'Fuzz knowledge' });
  real.document = await create(`/api/knowledge-bases/${real.knowledgeBase}/documents`, {
    name: 'fuzz.md',
    mediaType: 'text/markdown',
    content: '# Fuzz\n\nHostile input meets the knowledge base.',
  });
  real.memory = await rememberOne(real.agent);
  real.dataset = await create('/api/datasets', { name: 'Fuzz dataset' });
  await create(`/api/datasets/${real.dataset}/items`, { items: [{ input: { q: 'hi' }, expected: 'x' }] });
  real.datasetItem = (
    await t.request({ method: 'GET', url: `/api/datasets/${real.dataset}/items`, token: ada.token })
  ).json().items[0].id;
  real.evaluation = await create('/api/evaluations', {
    name: 'Fuzz evaluation',
    workflowId: real.workflow,
    datasetId: real.dataset,
    graders: [{ type: 'contains', expected: 'x' }],
  });
  real.evalRun = await create(`/api/evaluations/${real.evaluation}/runs`, {
    version: 'active',
    concurrency: 1,
  });
  // The workflow as a chat app, and a thread of Ada's there (a member writes by her session token).
  const chat = await t.request({
    method: 'PUT',
    url: `/api/workflows/${real.workflow}/publishing`,
    token: ada.token,
    payload: { chat: { enabled: true, slug: 'fuzz-chat', name: 'Fuzz chat', access: 'link' } },
  });
  expect(chat.statusCode).toBe(200);
  real.chatSlug = 'fuzz-chat';
  real.chatThread = (
    await t.request({ method: 'POST', url: '/api/chat/fuzz-chat/threads', token: ada.token })
  ).json().threadId;
  real.workflowTemplate = library.workflows[0].id;
  real.agentTemplate = library.agents[0].id;

  const config = { k: 'v', nested: { list: ['a', 1] } };
  const memory = { enabled: true, connection: 'openai', model: 'text-embedding-3-small' };
  // Valid bodies for every route that takes one, with every field the route reads; mutations start
  // from these (one case per field per hostile value), the first also carries the query and id cases.
  baseBodies = {
    'POST /api/auth/signup': [
      {
        username: 'fuzzer',
        email: 'fuzzer@example.com',
        firstName: 'F',
        lastName: 'Z',
        password: 'secret123',
        confirmPassword: 'secret123',
        role: 'user',
      },
    ],
    'POST /api/auth/login': [{ email: loginUser.user.email, password: 'secret123' }],
    'POST /api/auth/logout': [{}],
    // ada's own email (the logout cases sign in with it); a hostile value is refused or stored harmlessly.
    'PUT /api/auth/me': [
      { firstName: 'Ada', lastName: 'Fuzz', username: ada.user.username, email: ada.user.email },
    ],
    'POST /api/auth/change-password': [{ currentPassword: 'secret123', newPassword: 'secret123' }],
    'POST /api/auth/forgot-password': [{ email: loginUser.user.email }],
    'POST /api/auth/reset-password': [{ token: 'x'.repeat(43), password: 'secret123' }],
    'POST /api/auth/verify-email': [{ token: 'x'.repeat(43) }],
    'POST /api/auth/resend-verification': [{}],
    'POST /api/agents': [
      {
        name: 'A',
        description: 'd',
        role: 'R',
        goal: 'G',
        backstory: 'b',
        llmProvider: 'openai',
        llmModel: 'gpt-4o',
        temperature: 70,
        maxTokens: 2000,
        systemPrompt: 's',
        tools: ['search', { name: 'x' }],
        status: 'inactive',
        templateCategory: 'c',
        templateTags: ['t'],
        config,
        memory,
      },
    ],
    'PUT /api/agents/:id': [
      { name: 'Fuzz', temperature: 50, maxTokens: 1000, systemPrompt: 's', config, memory },
    ],
    'POST /api/agents/:id/test': [{ input: 'Hello' }],
    'PUT /api/agents/:id/knowledge-bases': [
      { knowledgeBaseIds: [real.knowledgeBase] },
      { knowledgeBaseIds: [] },
    ],
    'POST /api/agents/:id/chat': [
      {
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi' },
          { role: 'user', content: 'Again' },
        ],
      },
    ],
    'DELETE /api/agents/:id': [{}],
    'POST /api/workflows': [
      {
        name: 'W',
        description: 'd',
        processType: 'sequential',
        triggerType: 'manual',
        triggerConfig: { cron: '* * * * *', secret: 's', emailAddress: 'a@example.com', subjectFilter: 'f' },
        status: 'draft',
        templateCategory: 'c',
        templateTags: ['t'],
        config,
        ...chainOf([real.agent]),
      },
    ],
    'PUT /api/workflows/:id': [{ name: 'Fuzz flow', description: 'd', config, ...chainOf([real.agent]) }],
    'DELETE /api/workflows/:id': [{}],
    'POST /api/workflows/:id/versions/:version/restore': [{}],
    'POST /api/workflows/:id/nodes/:nodeId/test': [
      { context: { input: { q: 'hello' }, nodes: {}, vars: {} } },
      {
        node: {
          id: 'n1',
          type: 'agent',
          agentId: real.agent,
          position: { x: 0, y: 0 },
          data: { prompt: '{{ input.q }}' },
        },
        context: {
          input: { q: 'hi' },
          nodes: { start: { content: '', data: null, status: 'completed' } },
          vars: { a: 1 },
        },
      },
    ],
    'POST /api/workflows/:id/execute': [
      {
        input: { q: 'hello', n: 1, list: [1, 'a'] },
        parameters: { p: 'v' },
        dynamicInstructions: 'Be brief',
      },
    ],
    'POST /api/workflows/:id/webhook-secret': [{}],
    'POST /api/webhooks/:workflowId': [{ event: 'push', data: { list: [1, 'a'], nested: config } }],
    'POST /api/auth/microsoft/disconnect': [{}],
    'POST /api/executions/:id/cancel': [{}],
    'POST /api/executions/:id/retry': [{}, { fromNodeId: 'n1' }],
    'POST /api/tools': [
      {
        name: 'T',
        description: 'd',
        category: 'api',
        provider: 'p',
        config: { baseUrl: 'https://example.com', apiKey: 'k', extra: config },
        isActive: true,
      },
      { name: 'V', category: 'vector_store', config: { indexName: 'i', dimensions: 128, apiKey: 'k' } },
      {
        name: 'D',
        category: 'database',
        config: { connectionString: 'postgres://u:p@db.example.com/d', schema: 's' },
      },
      { name: 'C', category: 'custom', config: { url: 'https://example.com/hook' } },
    ],
    'PUT /api/tools/:id': [{ name: 'Fuzz tool', category: 'api', config: { apiKey: 'k', extra: config } }],
    'DELETE /api/tools/:id': [{}],
    'POST /api/tools/:id/test': [{}],
    'POST /api/tools/:id/mcp-refresh': [{}],
    'POST /api/agents/:agentId/tools/:toolId': [{ config: { isEnabled: true, extra: config } }],
    'PUT /api/agents/:agentId/tools/:toolId': [{ config: { extra: config }, isEnabled: true }],
    'DELETE /api/agents/:agentId/tools/:toolId': [{}],
    // ada is the only owner: every valid role change or removal of her answers 409.
    'PUT /api/organizations/:orgId': [{ name: 'Fuzz organization' }],
    'PUT /api/organizations/:orgId/members/:userId': [{ role: 'admin' }],
    'DELETE /api/organizations/:orgId/members/:userId': [{}],
    // Another address than the real invitation's, which stays pending for the token routes.
    'POST /api/organizations/:orgId/invitations': [{ email: 'fuzz-other@example.com', role: 'admin' }],
    'DELETE /api/organizations/:orgId/invitations/:id': [{}],
    'POST /api/organizations/:orgId/invitations/:id/verification-link': [{}],
    'POST /api/invitations/:token/accept': [{}],
    // The invitation's token is no approval link: 404 (approval-links.test.ts decides with real ones).
    'POST /api/approval-links/:token': [{ comment: 'Fuzz', fields: { amount: 1 } }],
    // No run has waited for an approval here: the id reaches the database and answers 404.
    'POST /api/approvals/:id/decision': [{ decision: 'approve', comment: 'Fuzz', fields: { note: 'x' } }],
    'PUT /api/organization/settings': [{ trustedSenderDomains: ['example.com', 'fuzz.example.org'] }],
    'PUT /api/organization/budget': [{ monthlyCapUsd: 10 }, { monthlyCapUsd: null }],
    'PUT /api/prices': [
      {
        provider: 'openai',
        model: 'gpt-4o',
        inputPerMillion: 2,
        cachedInputPerMillion: 1,
        outputPerMillion: 8,
      },
    ],
    'DELETE /api/prices/:provider/:model': [{}],
    'POST /api/auth/switch-organization': [{ organizationId: real.org }],
    // ada is the owner: a valid body changes her trial's plan; cancel answers the status, then 409.
    'POST /api/create-subscription': [{ planId: 'professional', amount: 4900 }],
    'POST /api/cancel-subscription': [{}],
    'POST /api/billing/setup-intent': [{}],
    'POST /api/stripe/webhook': [{ id: 'evt_1', type: 'invoice.paid', data: { object: {} } }],
    'POST /api/organizations/:orgId/api-keys': [
      { name: 'Fuzz key', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    ],
    'DELETE /api/organizations/:orgId/api-keys/:id': [{}],
    // An MCP client's consent (modules/oauth): no such client, so 400 before anything is stored.
    'POST /api/oauth/consent': [
      {
        clientId: 'fuzz-client',
        redirectUri: 'https://app.example.com/callback',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        state: 'fuzz',
        organizationId: '00000000-0000-4000-8000-000000000000',
        allow: true,
      },
    ],
    'DELETE /api/oauth/grants/:id': [{}],
    'POST /api/sales-inquiries': [
      { name: 'Fuzz', email: 'fuzz@example.com', company: 'Fuzz Co', message: 'Hello' },
    ],
    'POST /api/templates/seed': [{}],
    'POST /api/templates/:templateId/create': [{ name: 'Fuzz (Copy)' }],
    'POST /api/templates/agents/:templateId/create': [{ name: 'Fuzz agent' }],
    'POST /api/workflows/:id/save-as-template': [
      { name: 'Fuzz template', description: 'd', category: 'c', tags: ['t'] },
    ],
    'POST /api/agents/:id/save-as-template': [
      { name: 'Fuzz template', description: 'd', category: 'c', tags: ['t'] },
    ],
    'POST /api/knowledge-bases': [
      { name: 'K', description: 'd', embeddingProvider: 'openai', embeddingModel: 'text-embedding-3-small' },
    ],
    'PUT /api/knowledge-bases/:id': [{ name: 'Fuzz knowledge', description: 'd' }],
    'POST /api/datasets': [{ name: 'Fuzz dataset 2', description: 'd' }],
    'PUT /api/datasets/:id': [{ name: 'Fuzz dataset', description: 'd' }],
    'DELETE /api/datasets/:id': [{}],
    'POST /api/datasets/:id/items': [
      { items: [{ input: { q: 'hi', config }, expected: config, tags: ['t'] }] },
    ],
    'DELETE /api/datasets/:id/items/:itemId': [{}],
    'POST /api/datasets/:id/import': [
      {
        testing_criteria: [
          {
            type: 'string_check',
            name: 'eq',
            input: '{{sample.output_text}}',
            reference: '{{item.a}}',
            operation: 'eq',
          },
        ],
        items: [{ item: { q: 'hi', a: 'x' } }],
      },
    ],
    'POST /api/datasets/:id/items/from-executions': [
      { executionIds: [real.execution], useResultAsExpected: true },
    ],
    'POST /api/evaluations': [
      {
        name: 'Fuzz evaluation 2',
        workflowId: real.workflow,
        datasetId: real.dataset,
        graders: [
          {
            type: 'exact',
            target: 'run.result',
            expected: 'x',
            weight: 1,
            threshold: 1,
            caseSensitive: true,
          },
          { type: 'llm_judge', rubric: 'r', scale: '1-5', provider: 'openai', model: 'gpt-4o' },
        ],
        passThreshold: 1,
        schedule: { nightly: false, minPassRate: 0.9 },
      },
    ],
    'PUT /api/evaluations/:id': [
      {
        name: 'Fuzz evaluation',
        graders: [{ type: 'json_equals', field: 'a.b', expected: config }],
        passThreshold: 0.5,
      },
    ],
    'DELETE /api/evaluations/:id': [{}],
    'POST /api/evaluations/:id/runs': [{ version: 'active', concurrency: 1 }],
    'POST /api/eval-runs/:id/cancel': [{}],
    'DELETE /api/knowledge-bases/:id': [{}],
    'POST /api/knowledge-bases/:id/documents': [
      { name: 'n.txt', mediaType: 'text/plain', content: 'Some text' },
    ],
    'DELETE /api/knowledge-bases/:id/documents/:docId': [{}],
    'DELETE /api/agents/:id/memories/:memoryId': [{}],
    'DELETE /api/agents/:id/memories': [{}],
    'POST /api/knowledge-bases/:id/search': [{ query: 'hostile input', topK: 3 }],
    'PUT /api/workflows/:id/publishing': [
      {
        mcp: {
          enabled: true,
          toolName: 'fuzz_flow',
          description: 'The fuzz flow',
          inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^a+$' } } },
          timeoutSeconds: 30,
        },
      },
      { mcp: null },
    ],
    'POST /api/chat/:slug/unlock': [{ password: 'not the password' }],
    'POST /api/chat/:slug/threads': [{}],
    'POST /api/chat/:slug/threads/:threadId/messages': [{ message: 'Hello there' }],
    'DELETE /api/workflows/:id/chat-threads/:threadId': [{}],
    'PUT /api/tools/configurations/:id': [
      { config: { apiKey: 'sk-test', baseUrl: fake.url, defaultModel: 'gpt-4o' }, isActive: true },
    ],
  };
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await fakeMicrosoft?.close();
});

/** The real id a route parameter names; a route added without one here fails the test. */
function realParam(url: string, name: string): string {
  if (name === 'agentId') return real.agent;
  if (name === 'toolId') return real.tool;
  if (name === 'orgId') return real.org;
  if (name === 'userId') return real.user;
  if (name === 'token') return real.invitationToken;
  if (name === 'version') return '1';
  // The workflow's one agent step (chainOf names it n1).
  if (name === 'nodeId') return 'n1';
  if (name === 'workflowId') return real.workflow;
  if (name === 'docId') return real.document;
  if (name === 'memoryId') return real.memory;
  if (name === 'itemId') return real.datasetItem;
  if (name === 'slug') return real.chatSlug;
  if (name === 'threadId') return real.chatThread;
  // A model price (DELETE /api/prices/:provider/:model): the one the PUT case sets, else 404.
  if (name === 'provider') return 'openai';
  if (name === 'model') return 'gpt-4o';
  if (name === 'templateId') {
    return url.startsWith('/api/templates/agents/') ? real.agentTemplate : real.workflowTemplate;
  }
  if (name === 'id') {
    if (url.startsWith('/api/tools/configurations/')) return real.configuration;
    if (url.includes('/api-keys/')) return real.apiKey;
    // No grant: the revoke answers 404 (modules/oauth).
    if (url.startsWith('/api/oauth/grants/')) return '00000000-0000-4000-8000-000000000000';
    for (const [prefix, key] of [
      ['/api/agents/', 'agent'],
      ['/api/tools/', 'tool'],
      ['/api/workflows/', 'workflow'],
      ['/api/executions/', 'execution'],
      ['/api/approvals/', 'approval'],
      ['/api/knowledge-bases/', 'knowledgeBase'],
      ['/api/datasets/', 'dataset'],
      ['/api/evaluations/', 'evaluation'],
      ['/api/eval-runs/', 'evalRun'],
      ['/api/organizations/', 'invitation'],
    ]) {
      if (url.startsWith(prefix)) return real[key];
    }
  }
  throw new Error(`No real id for :${name} in ${url}; add one to realParam`);
}

const params = (url: string) => [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
const fill = (url: string, values: Record<string, string> = {}) =>
  url.replace(/:([A-Za-z]+)/g, (_, name: string) => values[name] ?? realParam(url, name));

/** Paths to the values in a JSON value (the root included), e.g. ['config', 'nested', 'list', '0']. */
function pathsOf(value: unknown, path: string[] = []): string[][] {
  const here = [path];
  if (value === null || typeof value !== 'object') return here;
  // Two elements of a list are enough (a workflow's start node and first agent node).
  const entries = Object.entries(value).slice(0, Array.isArray(value) ? 2 : undefined);
  return [...here, ...entries.flatMap(([key, child]) => pathsOf(child, [...path, key]))];
}

/** The base body as JSON text with the value at `path` replaced by raw JSON text. */
function withRawAt(base: unknown, path: string[], raw: string): string {
  const marker = '"@@HOSTILE@@"';
  if (path.length === 0) return raw;
  const copy = structuredClone(base) as Record<string, unknown>;
  let parent: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[path[path.length - 1]] = JSON.parse(marker);
  return JSON.stringify(copy).replace(marker, raw);
}

/** The base body as JSON text with a raw member added to the object at `path`. */
function withMemberAt(base: unknown, path: string[], member: string): string {
  const marker = '@@MEMBER@@';
  const copy = structuredClone(base) as Record<string, unknown>;
  let target: Record<string, unknown> = copy;
  for (const key of path) target = target[key] as Record<string, unknown>;
  target[marker] = 0;
  return JSON.stringify(copy).replace(`"${marker}":0`, member);
}

function casesFor(route: Route): Case[] {
  const key = `${route.method} ${route.url}`;
  const url = fill(route.url);
  const json = 'application/json';
  const bases = baseBodies[key];
  const baseText = bases && JSON.stringify(bases[0]);
  const cases: Case[] = [];
  const add = (label: string, body: string | undefined, at = url, contentType = body && json) =>
    cases.push({ label, method: route.method, url: at, body, contentType });

  for (const query of hostileQueries) add(`query ${query.slice(0, 40)}`, baseText, `${url}?${query}`);
  for (const name of params(route.url)) {
    for (const id of hostileIds) {
      const at = fill(route.url, { [name]: id });
      add(`:${name}=${id.slice(0, 40)}`, baseText, at);
      if (baseText) add(`:${name}=${id.slice(0, 40)} with NUL body`, '{"a":"\\u0000"}', at);
    }
  }
  if (route.method === 'GET') return cases;
  if (!bases) throw new Error(`No base body for ${key}; add one to baseBodies`);

  for (const [label, body] of Object.entries(hostileBodies)) add(`body ${label}`, body);
  for (const { label, contentType, body } of contentTypes)
    add(`content type ${label}`, body, url, contentType);
  for (const [n, base] of bases.entries()) {
    const variant = bases.length > 1 ? `#${n + 1} ` : '';
    for (const path of pathsOf(base)) {
      const values = path.length === 1 ? { ...hostileValues, ...topLevelValues } : hostileValues;
      if (path.length > 0) {
        for (const [label, raw] of Object.entries(values)) {
          add(`${variant}${path.join('.')} = ${label}`, withRawAt(base, path, raw));
        }
      }
      let target: unknown = base;
      for (const k of path) target = (target as Record<string, unknown>)[k];
      if (target === null || typeof target !== 'object' || Array.isArray(target)) continue;
      for (const [label, member] of Object.entries(hostileMembers)) {
        add(`${variant}${path.join('.') || 'body'} + ${label}`, withMemberAt(base, path, member));
      }
    }
  }
  return cases;
}

type Failure = { route: string; case: string; status: number; body: string };

/** Below 500, and JSON: an error with a string message, or a 2xx (204 has no body). */
function failureOf(route: Route, c: Case, res: LightMyRequestResponse): Failure | undefined {
  const oauthCallbacks = new Set(['/api/auth/microsoft/callback', '/api/mcp-oauth/callback']);
  const failure = {
    route: `${route.method} ${route.url}`,
    case: c.label,
    status: res.statusCode,
    body: res.body.slice(0, 300),
  };
  if (res.statusCode >= 500) return failure;
  if (res.statusCode === 204 && res.body === '') return undefined;
  // The OAuth sign-in callbacks (Microsoft 365, MCP servers) answer the popup with a page (the input
  // guard's refusals stay JSON).
  if (oauthCallbacks.has(route.url) && res.statusCode === 200) {
    return String(res.headers['content-type']).startsWith('text/html') ? undefined : failure;
  }
  // The audit log's export is CSV (modules/audit): its header line first.
  if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/csv')) {
    return res.body.startsWith('Time,Actor,') ? undefined : failure;
  }
  // The agent chat streams NDJSON: every line is JSON.
  if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('application/x-ndjson')) {
    try {
      res.body
        .trimEnd()
        .split('\n')
        .forEach((line) => JSON.parse(line));
      return undefined;
    } catch {
      return failure;
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return failure;
  }
  if (res.statusCode >= 300 && typeof (body as { message?: unknown })?.message !== 'string') return failure;
  return undefined;
}

// Deletes and logout end the fixtures the other routes need, so they go last: the agent's tool link
// before the agent (whose deletion takes its links along), logout after everything
// but the profile and password routes.
const phase = (r: Route) => {
  if (r.url.endsWith('/execute')) return 0; // while the workflow and its model connection are as made
  if (r.url === '/api/auth/logout') return 4;
  // A hostile new password that passes the rule changes ada's: nothing after may sign in as her.
  if (r.url === '/api/auth/me' && r.method === 'PUT') return 5;
  if (r.url === '/api/auth/change-password') return 5;
  if (r.method !== 'DELETE') return 1;
  // A link or a document before what holds it.
  return r.url.includes(':toolId') || r.url.includes(':docId') ? 2 : 3;
};

describe('route fuzz', () => {
  it(
    'answers every hostile request on every /api route below 500, as JSON',
    // Some 10,000 requests, about 45 s alone; CI runs it beside the web build and the browser tests,
    // which can make it three times as long. Its assertions are the answers, not the time.
    { timeout: 300_000 },
    async () => {
      const routes = t.app.routeInventory
        .filter((r) => r.url.startsWith('/api') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
        .map((r) => ({ method: r.method as Method, url: r.url }))
        .sort((a, b) => phase(a) - phase(b));
      expect(routes.length).toBeGreaterThan(20);
      const failures: Failure[] = [];
      let sent = 0;
      let logoutToken = '';
      for (const route of routes) {
        for (const c of casesFor(route)) {
          // Logout ends the session it is sent with: each case gets a session of its own.
          if (route.url === '/api/auth/logout' && !logoutToken) {
            const login = await t.app.inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { email: ada.user.email, password: 'secret123' },
            });
            expect(login.statusCode).toBe(200);
            logoutToken = login.json().token;
          }
          const res = await send(c, route.url === '/api/auth/logout' ? logoutToken : ada.token);
          if (route.url === '/api/auth/logout' && res.statusCode === 204) logoutToken = '';
          sent++;
          const failure = failureOf(route, c, res);
          if (failure) failures.push(failure);
        }
      }
      expect(sent).toBeGreaterThan(1000);
      expect(failures).toEqual([]);
    },
  );
});
