import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { realtimeMessages, type AuthResponse, type RealtimeEvent } from '@crewline/contracts';
import { and, eq } from 'drizzle-orm';
import { authSessions, userOrganizations } from '@crewline/db';
import type { FastifyInstance } from 'fastify';
import { buildApp, createServices, type Services } from '../../app';
import { createTokenService } from '../../platform/auth/tokens';
import { createPgEventBus, type PgEventBus } from '../../platform/events';
import { loggerOptions } from '../../platform/logger';
import { connectRealtime, type RealtimeClient } from '../../testing/realtime-client';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAuthRepository } from '../auth/auth.repository';

// The app runs on the Postgres bus, as in production: every event below crossed LISTEN/NOTIFY.
let t: TestApp;
let bus: PgEventBus;
let base: string;
let ada: AuthResponse;
let bob: AuthResponse;
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  t = await createTestApp({
    events: (database) =>
      (bus = createPgEventBus({
        databaseUrl: database.url,
        pool: database.pool,
        logger: { info: () => undefined, warn: () => undefined },
      })),
  });
  await bus.start();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
  base = `ws://127.0.0.1:${address.port}/ws`;
  ada = await t.signup();
  bob = await t.signup();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  await bus.stop();
  await t.close();
});

function connect(query = '', options: { cookie?: string; origin?: string } = {}) {
  const client = connectRealtime(`${base}${query}`, options);
  clients.push(client);
  return client;
}
const withToken = (auth: AuthResponse) => connect(`?token=${encodeURIComponent(auth.token)}`);

async function createAgent(auth: AuthResponse, name: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/agents',
    token: auth.token,
    payload: { name, role: 'Researcher', goal: 'Find facts' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

const agentCreated = (agentId: string) => (m: { type: string; agentId?: unknown }) =>
  m.type === 'agent_created' && m.agentId === agentId;

const unauthorized = { code: 4401, reason: realtimeMessages.unauthorized };

/** How the socket closed, or a failure once `ms` passed without a close (the heartbeat takes 30 s). */
function closedWithin(client: RealtimeClient, ms = 1000) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the socket was still open after ${ms} ms`)), ms);
  });
  return Promise.race([client.closed, deadline]).finally(() => clearTimeout(timer));
}

async function sessionIdOf(auth: AuthResponse): Promise<string> {
  const result = await t.services.auth.authenticate(auth.token);
  if (!result) throw new Error('the token does not authenticate');
  return result.context.sessionId;
}

async function login(auth: AuthResponse): Promise<AuthResponse> {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: auth.user.email, password: 'secret123' },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('realtime websocket: authentication', () => {
  it('closes with 4401 without a token or with a forged one', async () => {
    for (const client of [
      connect(),
      connect('?token=forged.token.value'),
      connect('', { cookie: 'authToken=nope' }),
    ]) {
      expect(await client.closed).toEqual({ code: 4401, reason: realtimeMessages.unauthorized });
    }
  });

  it('closes with 4401 once the session is logged out', async () => {
    const carol = await t.signup();
    const logout = await t.request({ method: 'POST', url: '/api/auth/logout', token: carol.token });
    expect(logout.statusCode).toBeLessThan(300);
    expect(await withToken(carol).closed).toEqual({ code: 4401, reason: realtimeMessages.unauthorized });
  });

  it('accepts the token in the query string', async () => {
    const client = withToken(ada);
    expect(await client.subscribe(ada.organization.id)).toEqual({
      type: 'subscribed',
      organizationId: ada.organization.id,
    });
  });

  it('accepts the token in the authToken cookie, but not from another site', async () => {
    const cookie = `theme=dark; authToken=${encodeURIComponent(ada.token)}`;
    const client = connect('', { cookie });
    expect(await client.subscribe(ada.organization.id)).toEqual({
      type: 'subscribed',
      organizationId: ada.organization.id,
    });
    const sameSite = connect('', { cookie, origin: base.replace('ws:', 'http:').replace('/ws', '') });
    expect((await sameSite.subscribe(ada.organization.id)).type).toBe('subscribed');
    // Cross-site websocket hijacking: the browser would attach the cookie to evil.example's socket too.
    const crossSite = connect('', { cookie, origin: 'https://evil.example' });
    expect(await crossSite.closed).toEqual({ code: 4401, reason: realtimeMessages.unauthorized });
  });
});

describe('realtime websocket: organizations', () => {
  it("delivers an organization's events only to its own subscribers", async () => {
    const atAda = withToken(ada);
    const atBob = withToken(bob);
    await atAda.subscribe(ada.organization.id);
    await atBob.subscribe(bob.organization.id);

    const adaAgent = await createAgent(ada, 'Ada agent');
    expect(await atAda.waitFor(agentCreated(adaAgent))).toEqual({
      type: 'agent_created',
      organizationId: ada.organization.id,
      agentId: adaAgent,
    });
    // Bob's own later event arrives: by then Ada's, published earlier, would have arrived too.
    const bobAgent = await createAgent(bob, 'Bob agent');
    await atBob.waitFor(agentCreated(bobAgent));
    // One listener feeds one hub, so Ada's event was routed (or not) to Bob before his own was.
    expect(atBob.messages.some((m) => m.organizationId === ada.organization.id)).toBe(false);
    expect(atAda.messages.some(agentCreated(bobAgent))).toBe(false);
  });

  it("refuses a subscription to another organization and never delivers that organization's events", async () => {
    const intruder = withToken(bob);
    expect(await intruder.subscribe(ada.organization.id)).toEqual({
      type: 'error',
      message: realtimeMessages.notMember,
    });
    for (const organizationId of [randomUUID(), 'not-an-id']) {
      expect(await intruder.subscribe(organizationId)).toEqual({
        type: 'error',
        message: realtimeMessages.notMember,
      });
    }
    intruder.send({ type: 'subscribe' });
    await intruder.waitFor(() => intruder.messages.length === 4);
    expect(intruder.messages[3]).toEqual({ type: 'error', message: realtimeMessages.notMember });

    const witness = withToken(ada);
    await witness.subscribe(ada.organization.id);
    const agentId = await createAgent(ada, 'Secret agent');
    await witness.waitFor(agentCreated(agentId));
    // A later event of the intruder's own organization arrives; Ada's earlier one never did.
    await intruder.subscribe(bob.organization.id);
    const bobAgent = await createAgent(bob, 'Bob second agent');
    await intruder.waitFor(agentCreated(bobAgent));
    expect(intruder.messages.some((m) => m.organizationId === ada.organization.id)).toBe(false);
  });
});

describe('realtime websocket: several memberships', () => {
  it('lets a member of several organizations follow each of them', async () => {
    const dave = await t.signup();
    const client = withToken(dave);
    expect((await client.subscribe(ada.organization.id)).type).toBe('error');
    await t.db
      .insert(userOrganizations)
      .values({ userId: dave.user.id, organizationId: ada.organization.id });
    expect(await client.subscribe(ada.organization.id)).toEqual({
      type: 'subscribed',
      organizationId: ada.organization.id,
    });
    await client.subscribe(dave.organization.id);
    const adaAgent = await createAgent(ada, 'Shared agent');
    const daveAgent = await createAgent(dave, 'Own agent');
    await client.waitFor(agentCreated(adaAgent));
    await client.waitFor(agentCreated(daveAgent));
  });

  it("stops an organization's events at the next session check once the user leaves it", async () => {
    const erin = await t.signup();
    await t.db
      .insert(userOrganizations)
      .values({ userId: erin.user.id, organizationId: ada.organization.id });
    const client = withToken(erin);
    await client.subscribe(ada.organization.id);
    await client.subscribe(erin.organization.id);
    await client.waitFor(agentCreated(await createAgent(ada, 'Before leaving')));

    await t.db
      .delete(userOrganizations)
      .where(
        and(
          eq(userOrganizations.userId, erin.user.id),
          eq(userOrganizations.organizationId, ada.organization.id),
        ),
      );
    await t.app.realtimeHub.recheckSessions();
    const hidden = await createAgent(ada, 'After leaving');
    // Her own organization's later event arrives, so Ada's earlier one would have too.
    await client.waitFor(agentCreated(await createAgent(erin, 'Still hers')));
    expect(client.messages.some(agentCreated(hidden))).toBe(false);
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });
});

describe('realtime websocket: sessions that end while connected', () => {
  it('closes an open socket with 4401 within a second of its logout, with no further events', async () => {
    const frank = await t.signup();
    const client = withToken(frank);
    await client.subscribe(frank.organization.id);
    await client.waitFor(agentCreated(await createAgent(frank, 'Before logout')));
    const other = withToken(ada);
    await other.subscribe(ada.organization.id);
    // Another socket of the same user, on a session that stays.
    const sameUser = withToken(await login(frank));
    await sameUser.subscribe(frank.organization.id);

    const logout = await t.request({ method: 'POST', url: '/api/auth/logout', token: frank.token });
    expect(logout.statusCode).toBe(204);
    // The organization keeps working (another session of the same user publishes an event)…
    const after = await createAgent(await login(frank), 'After logout');
    // …but the logged-out socket is closed without waiting for the heartbeat's session check.
    expect(await closedWithin(client)).toEqual(unauthorized);
    expect(client.messages.some(agentCreated(after))).toBe(false);
    await sameUser.waitFor(agentCreated(after));
    expect(sameUser.socket.readyState).toBe(sameUser.socket.OPEN);
    // Other sessions are untouched.
    await other.waitFor(agentCreated(await createAgent(ada, 'Still live')));
  });

  it('closes the socket of a session that expired while connected', async () => {
    const gus = await t.signup();
    const client = withToken(gus);
    await client.subscribe(gus.organization.id);
    await t.db
      .update(authSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authSessions.userId, gus.user.id));
    await t.app.realtimeHub.recheckSessions();
    expect(await client.closed).toEqual({ code: 4401, reason: realtimeMessages.unauthorized });
  });
});

describe('realtime websocket: sessions ended by another process', () => {
  // A second API process on the same database: its own app, services and Postgres bus.
  let bBus: PgEventBus;
  let bApp: FastifyInstance;
  let b: Services;
  beforeAll(async () => {
    bBus = createPgEventBus({
      databaseUrl: t.database.url,
      pool: t.database.pool,
      logger: { info: () => undefined, warn: () => undefined },
    });
    await bBus.start();
    const deps = { config: t.config, db: t.db, logger: false as const, events: bBus };
    b = createServices(deps);
    bApp = await buildApp(deps, b);
    await bApp.ready();
  });
  afterAll(async () => {
    await bApp.close();
    await bBus.stop();
  });

  it('closes the socket within a second when the session logs out through another process', async () => {
    const hana = await t.signup();
    const client = withToken(hana);
    await client.subscribe(hana.organization.id);
    const logout = await bApp.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${hana.token}` },
    });
    expect(logout.statusCode).toBe(204);
    expect(await closedWithin(client)).toEqual(unauthorized);
    expect(t.app.realtimeHub.subscriberCount(hana.organization.id)).toBe(0);
  });

  it("ending a user's other sessions (a password change) closes their sockets, not the current one", async () => {
    const ivan = await t.signup();
    const [second, third] = [await login(ivan), await login(ivan)];
    const current = withToken(ivan);
    const others = [withToken(second), withToken(third)];
    const stranger = withToken(ada);
    for (const client of [current, ...others]) await client.subscribe(ivan.organization.id);
    await stranger.subscribe(ada.organization.id);

    expect(await b.auth.endOtherSessions(ivan.user.id, await sessionIdOf(ivan))).toBe(2);
    for (const client of others) expect(await closedWithin(client)).toEqual(unauthorized);
    // The current session keeps its socket, its feed and its API access; the others are signed out.
    await current.waitFor(agentCreated(await createAgent(ivan, 'After the password change')));
    expect(current.socket.readyState).toBe(current.socket.OPEN);
    for (const token of [second.token, third.token]) {
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode).toBe(401);
    }
    await stranger.waitFor(agentCreated(await createAgent(ada, 'Unrelated')));
  });

  it("a removed membership stops that organization's feed at once and ends sessions signed in to it", async () => {
    const jane = await t.signup();
    await t.db
      .insert(userOrganizations)
      .values({ userId: jane.user.id, organizationId: ada.organization.id });
    // A session of Jane's signed in to Ada's organization (as switching organization would make).
    const expiresAt = new Date(Date.now() + 3_600_000);
    const sessionId = await createAuthRepository(t.db, t.services.audit).createSession({
      userId: jane.user.id,
      organizationId: ada.organization.id,
      expiresAt,
    });
    const inAdaOrgToken = await createTokenService(t.config.jwtSecret).sign(
      { sessionId, userId: jane.user.id, organizationId: ada.organization.id },
      expiresAt,
    );
    const inAdaOrg = connect(`?token=${encodeURIComponent(inAdaOrgToken)}`);
    await inAdaOrg.subscribe(ada.organization.id);
    const own = withToken(jane);
    await own.subscribe(ada.organization.id);
    await own.subscribe(jane.organization.id);
    await own.waitFor(agentCreated(await createAgent(ada, 'Before removal')));

    // What the membership-removal route does: delete the row, then announce it.
    await t.db
      .delete(userOrganizations)
      .where(
        and(
          eq(userOrganizations.userId, jane.user.id),
          eq(userOrganizations.organizationId, ada.organization.id),
        ),
      );
    await b.auth.membershipEnded(jane.user.id, ada.organization.id);

    expect(await closedWithin(inAdaOrg)).toEqual(unauthorized);
    const hidden = await createAgent(ada, 'After removal');
    // Her own organization's later event arrives, so Ada's earlier one would have too.
    await own.waitFor(agentCreated(await createAgent(jane, 'Still hers')));
    expect(own.messages.some(agentCreated(hidden))).toBe(false);
    expect(own.socket.readyState).toBe(own.socket.OPEN);
  });
});

describe('realtime websocket: open sockets per user', () => {
  it('refuses the socket past WS_MAX_PER_USER with 4429 and a reason; the ones before it work', async () => {
    const limited = await createTestApp({ config: { wsMaxPerUser: 3 } });
    try {
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const address = limited.app.server.address();
      if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
      const [kim, lee] = [await limited.signup(), await limited.signup()];
      const open = (auth: AuthResponse) => {
        const client = connectRealtime(
          `ws://127.0.0.1:${address.port}/ws?token=${encodeURIComponent(auth.token)}`,
        );
        clients.push(client);
        return client;
      };
      const allowed = [open(kim), open(kim), open(kim)];
      for (const client of allowed) {
        expect((await client.subscribe(kim.organization.id)).type).toBe('subscribed');
      }
      const refused = open(kim);
      expect(await closedWithin(refused, 5000)).toEqual({ code: 4429, reason: 'Too many open connections' });
      // The third socket still gets events, and another user is not limited by Kim's sockets.
      const agent = await limited.request({
        method: 'POST',
        url: '/api/agents',
        token: kim.token,
        payload: { name: 'Kim agent', role: 'Researcher', goal: 'Find facts' },
      });
      await allowed[2].waitFor(agentCreated(agent.json().id));
      expect((await open(lee).subscribe(lee.organization.id)).type).toBe('subscribed');
    } finally {
      await limited.close();
    }
  });
});

describe('realtime websocket: messages', () => {
  it('answers ping (JSON or bare) with pong and a bad message with an error, staying open', async () => {
    const client = withToken(ada);
    await client.opened;
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong');
    client.send('{not json');
    await client.waitFor((m) => m.type === 'error');
    client.send({ type: 'dance' });
    client.send('ping');
    await client.waitFor(() => client.messages.length === 4);
    expect(client.messages).toEqual([
      { type: 'pong' },
      { type: 'error', message: realtimeMessages.badMessage },
      { type: 'error', message: realtimeMessages.badMessage },
      { type: 'pong' },
    ]);
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });
});

describe('realtime websocket: across processes', () => {
  it(
    'delivers an event published by another OS process on the same database',
    { timeout: 30_000 },
    async () => {
      const client = withToken(ada);
      await client.subscribe(ada.organization.id);
      const event: RealtimeEvent = {
        type: 'workflow_execution_started',
        organizationId: ada.organization.id,
        executionId: randomUUID(),
        workflowId: randomUUID(),
      };
      const script = path.join(import.meta.dirname, '../../testing/publish-event.ts');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', script, t.database.url, JSON.stringify(event)],
        { env: { PATH: process.env.PATH, HOME: process.env.HOME } },
      );
      expect(stdout).toContain('published');
      expect(
        await client.waitFor((m) => m.type === event.type && m.executionId === event.executionId),
      ).toEqual(event);
    },
  );
});

describe('realtime websocket: logging', () => {
  it('keeps the query-string token out of the request log (the server-wide logger options)', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const logged = await createTestApp({ logger: { ...loggerOptions('info'), stream } });
    try {
      await logged.app.listen({ port: 0, host: '127.0.0.1' });
      const address = logged.app.server.address();
      if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
      const eve = await logged.signup();
      const client = connectRealtime(`ws://127.0.0.1:${address.port}/ws?token=${eve.token}`);
      clients.push(client);
      await client.subscribe(eve.organization.id);
      expect(log).toContain('/ws?token=[redacted]');
      expect(log).not.toContain(eve.token);
    } finally {
      await logged.close();
    }
  });
});
