import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { emailTriggerMessages, microsoftTokens, workflowExecutions } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeMicrosoftServer, type FakeMicrosoftServer } from '../../testing/fake-microsoft-server';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { configureModel, createAgent, createChainWorkflow, waitForRunEnd } from '../../testing/app-fixtures';
import {
  MICROSOFT_CALLBACK,
  PUBLIC_URL,
  connectMailbox,
  fakeMicrosoftConfig,
} from '../../testing/microsoft-mailbox';
import type { MicrosoftService } from '../microsoft/microsoft.service';
import { createEmailMonitor, messageMatches, type EmailMonitor } from './email-monitor';
import type { EmailMonitorRepository } from './email-monitor.repository';

// The email trigger end to end: a real database, the fake Microsoft identity platform and Graph, the
// fake model server and an in-process worker that runs what the monitors start. The monitors are
// polled by hand on a clock the test moves (the worker's own monitor is off), except in the last test.
const POLL_MS = 60_000;
const ORDERS = 'orders@contoso.example';

let microsoft: FakeMicrosoftServer;
let llm: FakeLlmServer;
let t: TestApp;
const logLines: string[] = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
let clock = new Date();
/** Each poll happens one interval after the last one (or now, whichever is later). */
const tick = () => {
  clock = new Date(Math.max(Date.now(), clock.getTime()) + POLL_MS + 1000);
  return clock;
};

const microsoftConfig = () => fakeMicrosoftConfig(microsoft, POLL_MS);

beforeAll(async () => {
  microsoft = await startFakeMicrosoftServer({ redirectUris: [MICROSOFT_CALLBACK] });
  llm = await startFakeLlmServer();
  t = await createTestApp({
    worker: true,
    emailMonitor: false,
    config: { publicUrl: PUBLIC_URL, microsoft: microsoftConfig() },
  });
});
afterAll(async () => {
  await t?.close();
  await microsoft?.close();
  await llm?.close();
});

/** Every organization connects the one fake mailbox: each test disconnects its own when done. */
let connected: AuthResponse[] = [];
afterEach(async () => {
  microsoft.refuseRefresh(false);
  for (const user of connected) await t.services.microsoft.disconnect(user.organization.id);
  connected = [];
});

function monitor(
  overrides: {
    repository?: EmailMonitorRepository;
    microsoft?: Pick<MicrosoftService, 'readInboxDelta'>;
  } = {},
): EmailMonitor {
  return createEmailMonitor({
    repository: overrides.repository ?? t.services.emailMonitor,
    microsoft: overrides.microsoft ?? t.services.microsoft,
    triggers: t.services.triggers,
    events: t.services.events,
    logger,
    pollMs: POLL_MS,
    now: () => clock,
  });
}
const poll = (m: EmailMonitor = monitor()) => {
  tick();
  return m.poll();
};

/** Connects the one mailbox for the organization (afterEach disconnects it). */
async function connect(user: AuthResponse) {
  await connectMailbox(t, user);
  connected.push(user);
}

let n = 0;
/** An organization with a connected mailbox and an active email workflow on the fake model. */
async function setUp(
  triggerConfig: Record<string, unknown> = { emailAddress: ORDERS, subjectFilter: 'invoice' },
) {
  const user = await t.signup();
  await connect(user);
  await configureModel(t, user.token, llm.url);
  const agentId = (await createAgent(t, user.token, { name: `Clerk ${++n}` })).id;
  const workflowId = await emailWorkflow(user, agentId, triggerConfig);
  return { user, agentId, workflowId, organizationId: user.organization.id };
}
const emailWorkflow = (user: AuthResponse, agentId: string, triggerConfig: Record<string, unknown>) =>
  createChainWorkflow(t, user.token, `Mail flow ${++n}`, [agentId], { triggerType: 'email', triggerConfig });

const runsOf = (workflowId: string) =>
  t.db
    .select()
    .from(workflowExecutions)
    .where(eq(workflowExecutions.workflowId, workflowId))
    .orderBy(workflowExecutions.createdAt);
const tokenRow = async (organizationId: string) =>
  (await t.db.select().from(microsoftTokens).where(eq(microsoftTokens.organizationId, organizationId)))[0];
const setRow = (organizationId: string, values: Partial<typeof microsoftTokens.$inferInsert>) =>
  t.db.update(microsoftTokens).set(values).where(eq(microsoftTokens.organizationId, organizationId));
const deltaRequests = () => microsoft.log.filter((entry) => entry.endpoint === 'delta').length;
/** A message for the orders address whose subject passes the filter. */
const invoice = (
  subject = 'Invoice 7',
  extra: Parameters<FakeMicrosoftServer['addMessage']>[0] | object = {},
) =>
  microsoft.addMessage({
    subject,
    to: [ORDERS],
    body: { contentType: 'text', content: `About ${subject}` },
    ...extra,
  });

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not met in time');
}

describe('messageMatches', () => {
  const message = (fields: { to?: string[]; cc?: string[]; subject?: string }) => ({
    id: 'm',
    from: 'a@b.example',
    to: fields.to ?? [],
    cc: fields.cc ?? [],
    subject: fields.subject ?? 'Invoice',
    body: '',
    receivedAt: new Date().toISOString(),
    internetMessageId: null,
  });
  it('compares whole addresses in To and Cc, ignoring case, and the subject filter as a substring', () => {
    const config = { emailAddress: 'Orders@Contoso.example', subjectFilter: 'INVOICE' };
    expect(messageMatches(message({ to: ['orders@contoso.example'] }), config)).toBe(true);
    expect(messageMatches(message({ cc: ['ORDERS@contoso.EXAMPLE'], subject: 'my invoice 9' }), config)).toBe(
      true,
    );
    expect(messageMatches(message({ to: ['xorders@contoso.example'] }), config)).toBe(false);
    expect(messageMatches(message({ to: ['orders@contoso.example.net'] }), config)).toBe(false);
    expect(messageMatches(message({ to: ['orders@contoso.example'], subject: 'Receipt' }), config)).toBe(
      false,
    );
    expect(
      messageMatches(message({ to: ['orders@contoso.example'], subject: 'x' }), { emailAddress: ORDERS }),
    ).toBe(true);
    expect(
      messageMatches(message({ to: ['orders@contoso.example'], subject: 'x' }), {
        emailAddress: ORDERS,
        subjectFilter: '  ',
      }),
    ).toBe(true);
    expect(messageMatches(message({ to: ['orders@contoso.example'] }), {})).toBe(false);
  });
});

describe('the email monitor', () => {
  it('ignores mail from before the connection and starts exactly one run for a matching new message', async () => {
    invoice('Invoice 1 (before the connection)');
    const { user, workflowId, organizationId } = await setUp();
    const since = deltaRequests();

    expect(await poll()).toBe(0);
    expect(await runsOf(workflowId)).toHaveLength(0);
    const row = await tokenRow(organizationId);
    expect(row.deltaLink).toMatch(/deltatoken=/);
    expect(row.nextPollAt!.getTime()).toBeGreaterThan(clock.getTime());
    // The fresh round asked for the fields it needs, bodies as text.
    const fresh = microsoft.log.filter((entry) => entry.endpoint === 'delta').slice(since)[0];
    expect(fresh.select).toBe(
      'subject,from,toRecipients,ccRecipients,body,receivedDateTime,internetMessageId',
    );
    expect(fresh.prefer).toContain('outlook.body-content-type="text"');

    const message = microsoft.addMessage({
      subject: 'Your INVOICE 42',
      to: ['ada@contoso.example'],
      cc: ['Orders@Contoso.Example'],
      body: { contentType: 'text', content: 'Please pay 42 EUR by Friday.' },
    });
    expect(await poll()).toBe(1);
    const runs = await runsOf(workflowId);
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe('email');
    expect(runs[0].triggeredBy).toBeNull();
    expect(runs[0].input).toEqual({
      from: 'grace@fabrikam.example',
      to: ['ada@contoso.example'],
      subject: 'Your INVOICE 42',
      body: 'Please pay 42 EUR by Friday.',
      receivedAt: message.receivedDateTime,
      messageId: message.id,
    });
    const done = await waitForRunEnd(t, user.token, runs[0].id);
    expect(done.status).toBe('completed');
    const [record] = await t.db
      .select()
      .from(emailTriggerMessages)
      .where(eq(emailTriggerMessages.workflowId, workflowId));
    expect(record).toMatchObject({ messageId: message.id, executionId: runs[0].id });

    // Polled again: nothing new.
    expect(await poll()).toBe(0);
    expect(await runsOf(workflowId)).toHaveLength(1);
  });

  it('starts nothing for mail to another address or without the subject filter, and nothing for a paused workflow', async () => {
    const { user, agentId, workflowId } = await setUp();
    const paused = await emailWorkflow(user, agentId, { emailAddress: ORDERS });
    const pause = await t.request({
      method: 'PUT',
      url: `/api/workflows/${paused}`,
      token: user.token,
      payload: { status: 'paused' },
    });
    expect(pause.statusCode).toBe(200);
    expect(await poll()).toBe(0);

    microsoft.addMessage({ subject: 'Invoice 1', to: ['xorders@contoso.example'] });
    microsoft.addMessage({
      subject: 'Invoice 2',
      to: ['orders@contoso.example.net'],
      cc: ['sales@contoso.example'],
    });
    invoice('Receipt 3');
    expect(await poll()).toBe(0);
    expect(await runsOf(workflowId)).toHaveLength(0);
    expect(await runsOf(paused)).toHaveLength(0);
    // The paused workflow would have taken the receipt: it was not fired, and it shows no error either.
    const pausedAnswer = await t.request({
      method: 'GET',
      url: `/api/workflows/${paused}`,
      token: user.token,
    });
    expect(pausedAnswer.json().lastTriggerError ?? null).toBeNull();
  });

  it('starts one run per message and workflow, however often the message is listed', async () => {
    const { organizationId, workflowId, user, agentId } = await setUp();
    const second = await emailWorkflow(user, agentId, { emailAddress: ORDERS, subjectFilter: '' });
    expect(await poll()).toBe(0);
    const before = (await tokenRow(organizationId)).deltaLink;

    invoice('Invoice 100');
    expect(await poll()).toBe(2);
    // The same delta link again: the message is listed again.
    await setRow(organizationId, { deltaLink: before });
    expect(await poll()).toBe(0);
    // A fresh round lists the whole inbox again.
    await setRow(organizationId, { deltaLink: null });
    expect(await poll()).toBe(0);
    // A delta link Graph no longer knows (410 SyncStateNotFound): a fresh round, nothing twice.
    await setRow(organizationId, {
      deltaLink: `${microsoft.graphUrl}/me/mailFolders/inbox/messages/delta?$deltatoken=gone`,
    });
    invoice('Invoice 101');
    expect(await poll()).toBe(2);
    expect((await tokenRow(organizationId)).deltaLink).toMatch(/deltatoken=/);
    expect(await runsOf(workflowId)).toHaveLength(2);
    expect(await runsOf(second)).toHaveLength(2);
    expect(logLines.join('\n')).toContain('the inbox delta link expired');
  });

  it('starts one run per message when two monitors poll at once', async () => {
    const { organizationId, workflowId } = await setUp();
    const [one, two] = [monitor(), monitor()];
    expect(await poll(one)).toBe(0);
    const link = (await tokenRow(organizationId)).deltaLink;

    for (const i of [1, 2, 3]) invoice(`Invoice ${i}`);
    tick();
    const started = await Promise.all([one.poll(), two.poll()]);
    expect(started.sort()).toEqual([0, 3]);
    expect(await runsOf(workflowId)).toHaveLength(3);

    // Both read the same page at once (as if both had claimed the poll): the records decide.
    for (const i of [4, 5]) invoice(`Invoice ${i}`);
    const unclaimed: EmailMonitorRepository = {
      ...t.services.emailMonitor,
      due: async () => [{ organizationId, nextPollAt: null }],
      claim: async () => ({ connectedAt: (await tokenRow(organizationId)).connectedAt, deltaLink: link }),
      renew: async () => true,
      release: async () => true,
    };
    tick();
    const raced = await Promise.all([
      monitor({ repository: unclaimed }).poll(),
      monitor({ repository: unclaimed }).poll(),
    ]);
    expect(raced[0] + raced[1]).toBe(2);
    expect(await runsOf(workflowId)).toHaveLength(5);
  });

  it('follows every next link of a round', async () => {
    const { workflowId } = await setUp();
    expect(await poll()).toBe(0);
    const since = deltaRequests();
    const wanted: string[] = [];
    for (let i = 0; i < 60; i++) {
      if (i === 0 || i === 30 || i === 59) wanted.push(invoice(`Invoice ${i}`).id);
      else microsoft.addMessage({ subject: `Newsletter ${i}`, to: ['ada@contoso.example'] });
    }
    expect(await poll()).toBe(3);
    // 25 a page: three pages.
    expect(deltaRequests() - since).toBe(3);
    const runs = await runsOf(workflowId);
    expect(runs.map((run) => run.input.messageId).sort()).toEqual(wanted.sort());
  });

  it('renews an expired access token and goes on polling', async () => {
    const { organizationId, workflowId } = await setUp();
    expect(await poll()).toBe(0);
    const refreshes = () =>
      microsoft.log.filter((entry) => entry.grantType === 'refresh_token' && entry.ok).length;
    const before = refreshes();

    // Expired by the stored time: renewed before the call.
    await setRow(organizationId, { expiresOn: new Date(Date.now() - 1000) });
    invoice('Invoice A');
    expect(await poll()).toBe(1);
    expect(refreshes()).toBe(before + 1);
    expect((await tokenRow(organizationId)).expiresOn!.getTime()).toBeGreaterThan(Date.now());

    // Refused by Graph although not due yet (401): renewed once and asked again.
    microsoft.expireAccessTokens();
    invoice('Invoice B');
    expect(await poll()).toBe(1);
    expect(refreshes()).toBe(before + 2);
    expect(await runsOf(workflowId)).toHaveLength(2);
    expect((await tokenRow(organizationId)).brokenAt).toBeNull();
  });

  it('marks a connection whose renewal is refused broken, says so once, and stops reading it', async () => {
    const { organizationId, workflowId, user } = await setUp();
    expect(await poll()).toBe(0);
    microsoft.refuseRefresh();
    await setRow(organizationId, { expiresOn: new Date(Date.now() - 1000) });
    invoice('Invoice lost');
    expect(await poll()).toBe(0);
    expect((await tokenRow(organizationId)).brokenAt).not.toBeNull();
    const brokenEvent = { type: 'microsoft_connection_broken', organizationId };
    await eventually(() =>
      t.published.some((event) => event.type === brokenEvent.type && event.organizationId === organizationId),
    );
    expect(
      t.published.filter(
        (event) => event.type === brokenEvent.type && event.organizationId === organizationId,
      ),
    ).toEqual([brokenEvent]);
    const status = await t.request({ method: 'GET', url: '/api/auth/microsoft/status', token: user.token });
    expect(status.json().broken).toBe(true);

    const since = deltaRequests();
    expect(await poll()).toBe(0);
    expect(deltaRequests()).toBe(since);
    expect(await runsOf(workflowId)).toHaveLength(0);
    expect(
      t.published.filter(
        (event) => event.type === brokenEvent.type && event.organizationId === organizationId,
      ),
    ).toHaveLength(1);
  });

  it('stops reading an inbox once disconnected, and a poll in flight then resurrects nothing', async () => {
    const { user, organizationId, workflowId } = await setUp();
    expect(await poll()).toBe(0);

    // A poll reading its page while the organization disconnects.
    invoice('Invoice in flight');
    let arrived!: () => void;
    const reading = new Promise<void>((resolve) => (arrived = resolve));
    let proceed!: () => void;
    const gate = new Promise<void>((resolve) => (proceed = resolve));
    const slow: Pick<MicrosoftService, 'readInboxDelta'> = {
      readInboxDelta: async (organization, link) => {
        const result = await t.services.microsoft.readInboxDelta(organization, link);
        arrived();
        await gate;
        return result;
      },
    };
    tick();
    const inFlight = monitor({ microsoft: slow }).poll();
    await reading;
    const res = await t.request({ method: 'POST', url: '/api/auth/microsoft/disconnect', token: user.token });
    expect(res.statusCode).toBeLessThan(300);
    proceed();
    expect(await inFlight).toBe(0);
    expect(await tokenRow(organizationId)).toBeUndefined();
    expect(await runsOf(workflowId)).toHaveLength(0);

    // Nothing reads the inbox any more.
    const since = deltaRequests();
    invoice('Invoice after');
    expect(await poll()).toBe(0);
    expect(deltaRequests()).toBe(since);
    expect(await runsOf(workflowId)).toHaveLength(0);
  });

  it('logs a Graph failure without tokens or mail, and reads the inbox again the next interval', async () => {
    const { organizationId, workflowId } = await setUp();
    expect(await poll()).toBe(0);
    const link = (await tokenRow(organizationId)).deltaLink;
    const secretBody = 'The vault code is 12345';
    invoice('Invoice during the outage', { body: { contentType: 'text', content: secretBody } });
    microsoft.failGraph(503, 2);
    logLines.length = 0;
    expect(await poll()).toBe(0);
    const row = await tokenRow(organizationId);
    expect(row.deltaLink).toBe(link);
    expect(row.nextPollAt!.getTime()).toBe(clock.getTime() + POLL_MS);
    const logged = logLines.join('\n');
    expect(logged).toContain('could not read a Microsoft 365 inbox');
    expect(logged).toContain('Microsoft Graph answered 503');
    expect(logged).not.toMatch(/fake-at-|fake-rt-|Bearer|vault code|deltatoken/);
    // Not due before its interval.
    expect(await monitor().poll()).toBe(0);
    // The second failure, then the inbox is read again.
    expect(await poll()).toBe(0);
    expect(await poll()).toBe(1);
    expect(await runsOf(workflowId)).toHaveLength(1);
    expect(logLines.join('\n')).not.toContain(secretBody);
  });

  it('survives the database going away', async () => {
    const down = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const broken: EmailMonitorRepository = {
      ...t.services.emailMonitor,
      due: async () => {
        throw down;
      },
      forgetBefore: async () => {
        throw down;
      },
    };
    logLines.length = 0;
    expect(await poll(monitor({ repository: broken }))).toBe(0);
    expect(logLines.join('\n')).toContain('could not look for inboxes to read');
  });

  it('forgets old records', async () => {
    const { workflowId } = await setUp();
    invoice('Invoice old record');
    expect(await poll()).toBe(1);
    await t.db
      .update(emailTriggerMessages)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 60 * 60_000) })
      .where(eq(emailTriggerMessages.workflowId, workflowId));
    // A fresh monitor cleans up on its first scan.
    expect(await poll()).toBe(0);
    expect(
      await t.db
        .select()
        .from(emailTriggerMessages)
        .where(and(eq(emailTriggerMessages.workflowId, workflowId))),
    ).toEqual([]);
  });

  it('marks runs from senders outside the trusted domains untrusted, and from inside them (subdomains too) trusted', async () => {
    const { user, workflowId } = await setUp();
    const sender = (address: string) => ({ from: { emailAddress: { name: 'Sender', address } } });
    const untrustedOf = async (runId: string) =>
      (await t.request({ method: 'GET', url: `/api/executions/${runId}`, token: user.token })).json()
        .untrusted as boolean;

    // No trusted domain yet: every sender is outside.
    invoice('Invoice A', sender('grace@fabrikam.example'));
    expect(await poll()).toBe(1);
    const settings = await t.request({
      method: 'PUT',
      url: '/api/organization/settings',
      token: user.token,
      payload: { trustedSenderDomains: ['Fabrikam.example'] },
    });
    expect(settings.statusCode).toBe(200);
    invoice('Invoice B', sender('grace@fabrikam.example'));
    invoice('Invoice C', sender('Lin@EU.Fabrikam.Example'));
    invoice('Invoice D', sender('mallory@notfabrikam.example'));
    expect(await poll()).toBe(3);

    const runs = await runsOf(workflowId);
    const bySubject = new Map(runs.map((run) => [run.input.subject as string, run.id]));
    expect(await untrustedOf(bySubject.get('Invoice A')!)).toBe(true);
    expect(await untrustedOf(bySubject.get('Invoice B')!)).toBe(false);
    expect(await untrustedOf(bySubject.get('Invoice C')!)).toBe(false);
    expect(await untrustedOf(bySubject.get('Invoice D')!)).toBe(true);
    // The list says so too.
    const list = await t.request({
      method: 'GET',
      url: `/api/executions?workflowId=${workflowId}`,
      token: user.token,
    });
    const listed = new Map(
      (list.json() as { id: string; untrusted: boolean }[]).map((r) => [r.id, r.untrusted]),
    );
    expect(listed.get(bySubject.get('Invoice A')!)).toBe(true);
    expect(listed.get(bySubject.get('Invoice B')!)).toBe(false);
  });
});

describe('the worker role', () => {
  it('reads connected inboxes by itself', async () => {
    const own = await createTestApp({
      worker: true,
      emailMonitor: { pollMs: 300 },
      config: { publicUrl: PUBLIC_URL, microsoft: microsoftConfig() },
    });
    const previous = t;
    t = own;
    try {
      const { user, workflowId } = await setUp({ emailAddress: ORDERS });
      const message = invoice('Anything at all');
      await eventually(async () => (await runsOf(workflowId)).length > 0, 8000);
      const [run] = await runsOf(workflowId);
      expect(run.input.messageId).toBe(message.id);
      expect((await waitForRunEnd(t, user.token, run.id)).status).toBe('completed');
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await runsOf(workflowId)).toHaveLength(1);
      for (const u of connected) await own.services.microsoft.disconnect(u.organization.id);
      connected = [];
    } finally {
      t = previous;
      await own.close();
    }
  });
});
