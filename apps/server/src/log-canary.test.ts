import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from './testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server';
import { loggerOptions } from './platform/logger';
import { hashPassword } from './platform/auth/passwords';
import { modelToolName } from './modules/tools/runtime/tool-runtime';

/**
 * Nothing secret ever reaches a log line (docs/security.md): the real app logs at trace level into memory
 * while requests carry planted secrets, succeeding and failing, some into unhandled database errors
 * whose query parameters hold them. Every line written is then searched for them.
 */

const canary = (what: string) => `canary-${what}-${randomUUID()}`;
const secrets = {
  signupPassword: canary('signup-password'),
  wrongPassword: canary('wrong-password'),
  failedSignupPassword: canary('failed-signup-password'),
  toolApiKey: canary('tool-api-key'),
  configurationApiKey: canary('configuration-api-key'),
  configurationPassword: canary('configuration-password'),
  connectionPassword: canary('connection-password'),
  bearer: canary('bearer'),
  cookie: canary('cookie'),
  headerKey: canary('header-key'),
  queryToken: canary('query-token'),
  queryParameter: canary('query-parameter'),
  causeToken: canary('cause-token'),
  jsonInput: canary('json-input'),
  invitationToken: canary('invitation-token'),
  oauthCode: canary('oauth-code'),
  oauthState: canary('oauth-state'),
  oauthSessionState: canary('oauth-session-state'),
};

const logLines: string[] = [];
let t: TestApp;
let ada: AuthResponse;
let fake: FakeLlmServer;
let endpoint: http.Server;
let endpointUrl: string;

beforeAll(async () => {
  // A user row's hash, as a failed insert into users carries it among its parameters.
  const passwordHash = await hashPassword(secrets.signupPassword);
  fake = await startFakeLlmServer({ requireKey: 'a-key-the-canary-is-not' });
  // A tool endpoint that fails, as real ones do.
  endpoint = http.createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'upstream exploded' }));
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;

  t = await createTestApp({
    logger: {
      ...loggerOptions('trace'),
      stream: new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }),
    },
    // Unhandled errors carrying secrets, as a failed insert or a bad stored value would raise them.
    routes(app, database) {
      app.get('/api/log-canary/failing-cast', { config: { public: true } }, async () =>
        database.db.execute(sql`select ${secrets.queryParameter}::uuid`),
      );
      app.get('/api/log-canary/failing-table', { config: { public: true } }, async () =>
        database.db.execute(
          sql`insert into no_such_table (email, password_hash) values (${secrets.queryParameter}, ${passwordHash})`,
        ),
      );
      app.get('/api/log-canary/failing-parse', { config: { public: true } }, async () =>
        JSON.parse(`{"apiKey": ${secrets.jsonInput}}`),
      );
      app.get('/api/log-canary/failing-cause', { config: { public: true } }, async () => {
        const cause = new Error(`GET https://api.example.com/v1?api_key=${secrets.causeToken} failed`);
        throw new Error('the provider call failed', { cause });
      });
    },
  });
  ada = await t.signup({ password: secrets.signupPassword, confirmPassword: secrets.signupPassword });
});

afterAll(async () => {
  await t.close();
  await fake.close();
  await new Promise((resolve) => endpoint.close(resolve));
});

const request = (options: Parameters<TestApp['request']>[0]) => t.request({ token: ada.token, ...options });

async function createTool(payload: object) {
  const res = await request({ method: 'POST', url: '/api/tools', payload });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: string };
}

describe('the server log', () => {
  it('holds no secret after signups, logins, tools, connections and unhandled errors', async () => {
    // Signup and login, succeeding and failing (a duplicate, a NUL character, a wrong password).
    const signup = (fields: object) =>
      t.request({
        method: 'POST',
        url: '/api/auth/signup',
        payload: {
          username: `canary${randomUUID().slice(0, 8)}`,
          email: `canary-${randomUUID()}@example.com`,
          firstName: 'Canary',
          lastName: 'Bird',
          password: secrets.failedSignupPassword,
          confirmPassword: secrets.failedSignupPassword,
          role: 'user',
          ...fields,
        },
      });
    expect((await signup({ email: ada.user.email })).statusCode).toBe(409);
    expect((await signup({ firstName: 'Can\u0000ary' })).statusCode).not.toBe(201);
    const login = (password: string) =>
      t.request({ method: 'POST', url: '/api/auth/login', payload: { email: ada.user.email, password } });
    expect((await login(secrets.wrongPassword)).statusCode).toBe(401);
    expect((await login(secrets.signupPassword)).statusCode).toBe(200);

    // Credentials in headers and in the query string of ordinary routes.
    expect(
      (await request({ method: 'GET', url: `/api/agents?token=${secrets.queryToken}` })).statusCode,
    ).toBe(200);
    const anonymous = await t.request({
      method: 'GET',
      url: `/api/workflows?token=${secrets.queryToken}&access_token=${secrets.queryToken}`,
      headers: {
        authorization: `Bearer ${secrets.bearer}`,
        cookie: `authToken=${secrets.cookie}`,
        'x-api-key': secrets.headerKey,
      },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(
      (await request({ method: 'GET', url: `/api/nowhere?api_key=${secrets.queryToken}` })).statusCode,
    ).toBe(404);

    // Tool credentials and connection strings: stored, refused, and used by a failing tool call.
    const http = await createTool({
      name: 'Orders API',
      category: 'api',
      config: { baseUrl: endpointUrl, apiKey: secrets.toolApiKey },
    });
    const refused = await request({
      method: 'PUT',
      url: `/api/tools/${http.id}`,
      payload: { category: 'api', config: { baseUrl: 'not a url', apiKey: secrets.toolApiKey } },
    });
    expect(refused.statusCode).toBe(400);
    const connectionString = `postgres://shop:${secrets.connectionPassword}@127.0.0.1:1/shop`;
    const database = await createTool({
      name: 'Shop DB',
      category: 'database',
      config: { connectionString },
    });
    const withNul = await request({
      method: 'POST',
      url: '/api/tools',
      payload: { name: 'Bad\u0000Tool', category: 'database', config: { connectionString } },
    });
    expect(withNul.statusCode).not.toBe(201);

    // Organization-wide connections: a model key the provider refuses, a database password.
    const configure = (id: string, config: object) =>
      request({ method: 'PUT', url: `/api/tools/configurations/${id}`, payload: { config } });
    expect(
      (
        await configure('openai_config', {
          apiKey: secrets.configurationApiKey,
          baseUrl: fake.url,
          defaultModel: 'gpt-4o',
        })
      ).statusCode,
    ).toBe(200);
    expect((await configure('database_config', { password: secrets.configurationPassword })).statusCode).toBe(
      200,
    );
    expect(
      (await configure('openai_config', { apiKey: secrets.configurationApiKey, baseUrl: 'ftp://x' }))
        .statusCode,
    ).toBe(400);
    expect((await request({ method: 'GET', url: '/api/llm/providers' })).statusCode).toBe(200);

    // An agent test: the model refuses the key, then (accepting any key) calls both tools, which fail.
    const agent = (
      await request({
        method: 'POST',
        url: '/api/agents',
        payload: { name: 'Scout', role: 'Researcher', goal: 'Find data', llmModel: 'gpt-4o' },
      })
    ).json() as { id: string };
    for (const tool of [http, database]) {
      await request({
        method: 'POST',
        url: `/api/agents/${agent.id}/tools/${tool.id}`,
        payload: { config: {} },
      });
    }
    const testAgent = () =>
      request({ method: 'POST', url: `/api/agents/${agent.id}/test`, payload: { input: 'Go' } });
    expect((await testAgent()).json()).toMatchObject({ success: false });
    await configure('openai_config', { apiKey: 'a-key-the-canary-is-not', baseUrl: fake.url });
    fake.script([
      {
        toolCalls: [
          { name: modelToolName(http), arguments: { method: 'GET', path: 'orders/42' } },
          { name: modelToolName(database), arguments: { sql: 'select 1' } },
        ],
      },
      { content: 'Both tools failed.' },
    ]);
    const answered = (await testAgent()).json();
    expect(answered, JSON.stringify(answered)).toMatchObject({ success: true });

    // Unhandled errors whose query parameters, input or cause hold a secret.
    for (const path of ['failing-cast', 'failing-table', 'failing-parse', 'failing-cause']) {
      const res = await t.request({ method: 'GET', url: `/api/log-canary/${path}` });
      expect(res.statusCode).toBe(500);
    }

    // An invitation: its token is in the path of the link, the preview and the acceptance.
    const invited = await request({
      method: 'POST',
      url: `/api/organizations/${ada.organization.id}/invitations`,
      payload: { email: `invitee-${randomUUID()}@example.com` },
    });
    expect(invited.statusCode).toBe(201);
    const invitation = invited.json() as { token: string; email: string };
    const invitee = await t.signup({ email: invitation.email });
    expect((await t.request({ method: 'GET', url: `/api/invitations/${invitation.token}` })).statusCode).toBe(
      200,
    );
    // The web app's invitation page (no web build in tests: the SPA fallback's 503, logged all the same).
    expect((await t.request({ method: 'GET', url: `/invite/${invitation.token}` })).statusCode).toBe(503);
    const stranger = await t.signup();
    const accept = (token: string) =>
      t.request({ method: 'POST', url: `/api/invitations/${invitation.token}/accept`, token });
    expect((await accept(stranger.token)).statusCode).toBe(403);
    expect((await accept(invitee.token)).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: `/api/invitations/${secrets.invitationToken}` })).statusCode,
    ).toBe(404);

    // Microsoft's redirect back to the OAuth callback, with its code and state.
    const callback = await t.request({
      method: 'GET',
      url: `/api/auth/microsoft/callback?code=${secrets.oauthCode}&state=${secrets.oauthState}&session_state=${secrets.oauthSessionState}`,
    });
    expect(callback.statusCode).toBe(200);

    // Logout, with the session's token in the header.
    expect((await request({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBeLessThan(300);

    const log = logLines.join('');
    // No secret, password hash, authorization value, query or parameter was logged…
    const leaked = Object.entries(secrets)
      .filter(([, secret]) => log.includes(secret))
      .map(([name]) => name);
    expect(leaked).toEqual([]);
    expect(log).not.toContain(ada.token);
    expect(log).not.toContain(invitation.token);
    expect(log).not.toContain('$argon2id$');
    expect(log).not.toMatch(/Bearer (?!\[redacted\])/);
    expect(log).not.toContain('Failed query');
    expect(log).not.toContain('params:');

    // …and the log is still useful: requests keep their method and path, errors their type and code.
    expect(log).toContain('"method":"GET","url":"/api/agents?token=[redacted]"');
    expect(log).toContain('/api/workflows?token=[redacted]&access_token=[redacted]');
    expect(log).toContain('"url":"/api/invitations/[redacted]/accept"');
    expect(log).toContain('"url":"/invite/[redacted]"');
    expect(log).toContain(
      '"url":"/api/auth/microsoft/callback?code=[redacted]&state=[redacted]&session_state=[redacted]"',
    );
    expect(log).toContain('"type":"DrizzleQueryError"');
    expect(log).toContain('"code":"22P02"'); // invalid input syntax for type uuid
    expect(log).toContain('"code":"42P01"'); // relation does not exist
    expect(log).toContain('the provider call failed');
  });
});
