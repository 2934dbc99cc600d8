import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import {
  chatMessages,
  type AuthResponse,
  type ChatMessage,
  type ChatPublishingInput,
  type ChatStreamEvent,
  type ChatThreadSummary,
  type Execution,
} from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import {
  configureModel,
  createAgent,
  createChainWorkflow,
  expectNeverAnswered,
  joinOrganization,
  waitForRunEnd,
} from '../../testing/app-fixtures';

/*
 * Chat apps' public routes and threads (docs/product-rules.md, Chat apps), through the real app with a
 * worker in the process running each message's run on the fake model.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let member: AuthResponse;
let other: AuthResponse;
let agentId = '';
let workflowCount = 0;

const PASSWORD = 'open sesame';

type Answer = Awaited<ReturnType<TestApp['request']>>;
type Caller = { cookies?: (string | undefined)[]; token?: string; headers?: Record<string, string> };

/** A new active workflow of Ada's, on the fake model. */
const newWorkflow = () => createChainWorkflow(t, ada.token, `Chat flow ${++workflowCount}`, [agentId]);

const publish = (workflowId: string, chat: ChatPublishingInput | null, token = ada.token) =>
  t.request({ method: 'PUT', url: `/api/workflows/${workflowId}/publishing`, token, payload: { chat } });

const chatApp = (slug: string, fields: Partial<ChatPublishingInput> = {}): ChatPublishingInput => ({
  enabled: true,
  slug,
  name: `The ${slug} chat`,
  access: 'link',
  ...fields,
});

/** A new workflow published as an app at `slug`; its id. */
async function publishedApp(slug: string, fields: Partial<ChatPublishingInput> = {}) {
  const workflowId = await newWorkflow();
  const res = await publish(workflowId, chatApp(slug, fields));
  expect(res.statusCode, res.body).toBe(200);
  return workflowId;
}

/** A request of the chat's routes with the caller's cookies, session token and headers. */
function call(method: InjectOptions['method'], url: string, caller: Caller = {}, payload?: object) {
  const cookie = (caller.cookies ?? []).filter(Boolean).join('; ');
  return t.request({
    method,
    url,
    token: caller.token,
    headers: { ...(cookie ? { cookie } : {}), ...caller.headers },
    payload,
  });
}

/** The `name=value` of a cookie the answer sets, and the whole Set-Cookie line. */
function setCookie(res: Answer, name: string): { pair: string; line: string } | undefined {
  const header = res.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  const line = lines.find((l) => l.startsWith(`${name}=`));
  return line ? { pair: line.split(';')[0], line } : undefined;
}

/** Starts a thread as the caller; its id and the visitor cookie (set when the caller had none). */
async function newThread(slug: string, caller: Caller = {}) {
  const res = await call('POST', `/api/chat/${slug}/threads`, caller);
  expect(res.statusCode, res.body).toBe(201);
  const cookie = setCookie(res, 'crewline_chat_visitor')?.pair ?? caller.cookies?.[0];
  return { threadId: res.json().threadId as string, cookie, res };
}

const send = (slug: string, threadId: string, message: string, caller: Caller = {}) =>
  call('POST', `/api/chat/${slug}/threads/${threadId}/messages`, caller, { message });

const readThread = (slug: string, threadId: string, caller: Caller = {}) =>
  call('GET', `/api/chat/${slug}/threads/${threadId}`, caller);

const runOf = async (runId: string): Promise<Execution> =>
  (await t.request({ method: 'GET', url: `/api/executions/${runId}`, token: ada.token })).json();

/** The `data:` events of a Server-Sent Events answer, in order. */
const eventsOf = (body: string): ChatStreamEvent[] =>
  body
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as ChatStreamEvent);

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
  other = await t.signup();
  member = await joinOrganization(t, ada, await t.signup({ firstName: 'Mo', lastName: 'Member' }), 'member');
  await configureModel(t, ada.token, fake.url);
  agentId = (await createAgent(t, ada.token, { name: 'Helper' })).id;
}, 60_000);

afterEach(() => fake.reset());

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('a thread', () => {
  let workflowId = '';
  beforeAll(async () => {
    workflowId = await publishedApp('helpdesk', { greeting: 'Hi!', suggestions: ['Hours?'] });
  });

  it("shows the app's face, ready for anyone with the link", async () => {
    const res = await call('GET', '/api/chat/helpdesk');
    expect(res.json()).toEqual({
      slug: 'helpdesk',
      name: 'The helpdesk chat',
      greeting: 'Hi!',
      suggestions: ['Hours?'],
      theme: { mode: 'auto', accent: '#4f46e5' },
      access: 'link',
      gate: 'ready',
    });
    expect((await call('GET', '/api/chat/nobody-here')).json().message).toBe(chatMessages.notFound);
  });

  it('sets a signed visitor cookie, HttpOnly, for the chat routes and as long as a thread lives', async () => {
    const { res } = await newThread('helpdesk');
    const cookie = setCookie(res, 'crewline_chat_visitor')!;
    expect(cookie.pair).toMatch(/^crewline_chat_visitor=[\w-]{22}\.[\w-]{43}$/);
    expect(cookie.line).toContain('Path=/api/chat');
    expect(cookie.line).toContain('HttpOnly');
    expect(cookie.line).toContain(`Max-Age=${30 * 86_400}`);
    // The test server's public URL is http: no third-party cookie there.
    expect(cookie.line).toContain('SameSite=Lax');
    // A forged id (its signature another's) is no visitor: the next thread gets a cookie of its own.
    const forged = cookie.pair.replace(/=[\w-]{4}/, '=AAAA');
    const again = await newThread('helpdesk', { cookies: [forged] });
    expect(again.cookie).not.toBe(forged);
    expect(again.cookie?.split('.')[0]).not.toBe(forged.split('.')[0]);
  });

  it('answers each message as JSON, and carries the thread so far as the next run’s history', async () => {
    const { threadId, cookie } = await newThread('helpdesk');
    const caller = { cookies: [cookie] };
    fake.script([
      { content: 'We open at nine.' },
      { content: 'Until five.' },
      { content: 'You are welcome.' },
    ]);
    const answers: { reply: string; runId: string; status: string }[] = [];
    for (const message of ['When do you open?', 'And close?', 'Thanks']) {
      const res = await send('helpdesk', threadId, message, caller);
      expect(res.statusCode, res.body).toBe(200);
      answers.push(res.json());
    }
    expect(answers.map(({ reply, status }) => ({ reply, status }))).toEqual([
      { reply: 'We open at nine.', status: 'done' },
      { reply: 'Until five.', status: 'done' },
      { reply: 'You are welcome.', status: 'done' },
    ]);

    const third = await runOf(answers[2].runId);
    expect(third.input).toEqual({
      message: 'Thanks',
      history: [
        { role: 'user', content: 'When do you open?' },
        { role: 'assistant', content: 'We open at nine.' },
        { role: 'user', content: 'And close?' },
        { role: 'assistant', content: 'Until five.' },
      ],
      threadId,
      visitor: { id: cookie!.split('=')[1].split('.')[0], member: false },
    });
    // A visitor is outside the organization: the run is untrusted, started by the chat, by nobody.
    expect(third).toMatchObject({
      trigger: 'chat',
      triggerDetail: 'helpdesk',
      untrusted: true,
      triggeredBy: null,
    });

    const thread = await readThread('helpdesk', threadId, caller);
    expect(thread.statusCode).toBe(200);
    const messages = thread.json().messages as ChatMessage[];
    expect(
      messages.map(({ id, role, content, runId, status }) => ({ id, role, content, runId, status })),
    ).toEqual(
      answers.flatMap((answer, i) => [
        {
          id: messages[2 * i].id,
          role: 'user',
          content: ['When do you open?', 'And close?', 'Thanks'][i],
          runId: answer.runId,
          status: 'done',
        },
        {
          id: `${messages[2 * i].id}:reply`,
          role: 'assistant',
          content: answer.reply,
          runId: answer.runId,
          status: 'done',
        },
      ]),
    );
  });

  it('streams the reply as Server-Sent Events: the run, its pieces as written, then the whole reply', async () => {
    const { threadId, cookie } = await newThread('helpdesk');
    const reply = 'The quick brown fox jumps over the lazy dog';
    fake.script([{ content: reply, chunkDelayMs: 120 }]);
    const res = await send('helpdesk', threadId, 'Tell me a pangram', {
      cookies: [cookie],
      headers: { accept: 'text/event-stream' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-accel-buffering']).toBe('no');
    // The hijacked answer still carries the security headers.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const events = eventsOf(res.body);
    const runId = (events[0] as { runId: string }).runId;
    expect(events[0]).toEqual({ type: 'run', runId: expect.any(String) });
    const deltas = events.slice(1, -1);
    // Pieces as the model wrote them (the step's last words, not streamed, come as one last piece).
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.every((e) => e.type === 'delta')).toBe(true);
    expect(deltas.map((e) => (e as { text: string }).text).join('')).toBe(reply);
    expect(events.at(-1)).toEqual({ type: 'done', runId, reply });
  });

  it('goes on with the run when the client goes away mid-answer, and the thread then shows the reply', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { threadId, cookie } = await newThread('helpdesk');
    fake.script([{ content: 'Worth the wait.', delayMs: 800 }]);
    const gone = new AbortController();
    const res = await fetch(`${base}/api/chat/helpdesk/threads/${threadId}/messages`, {
      method: 'POST',
      headers: { cookie: cookie!, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Take your time' }),
      signal: gone.signal,
    });
    const first = await res.body!.getReader().read();
    const [started] = eventsOf(new TextDecoder().decode(first.value));
    expect(started.type).toBe('run');
    gone.abort();
    const run = await waitForRunEnd(t, ada.token, (started as { runId: string }).runId);
    expect(run.status).toBe('completed');
    const thread = await readThread('helpdesk', threadId, { cookies: [cookie] });
    expect(thread.json().messages[1]).toMatchObject({
      role: 'assistant',
      content: 'Worth the wait.',
      status: 'done',
    });
  });

  it("keeps a thread its visitor's: another visitor, no cookie or another app finds nothing", async () => {
    const { threadId, cookie } = await newThread('helpdesk');
    const stranger = await newThread('helpdesk');
    for (const caller of [{ cookies: [stranger.cookie] }, {}, { token: ada.token }]) {
      const res = await readThread('helpdesk', threadId, caller);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(chatMessages.threadNotFound);
      expect((await send('helpdesk', threadId, 'Hello?', caller)).statusCode).toBe(404);
    }
    await publishedApp('elsewhere');
    expect((await readThread('elsewhere', threadId, { cookies: [cookie] })).statusCode).toBe(404);
    expect((await readThread('helpdesk', threadId, { cookies: [cookie] })).statusCode).toBe(200);
  });

  it('forgets a thread 30 days after its last message, and the prune deletes it (its runs stay)', async () => {
    const { threadId, cookie } = await newThread('helpdesk');
    const sent = await send('helpdesk', threadId, 'Remember me?', { cookies: [cookie] });
    const runId = sent.json().runId as string;
    await t.database.pool.query(
      `UPDATE chat_threads SET last_message_at = now() - interval '31 days' WHERE id = $1`,
      [threadId],
    );
    expect((await readThread('helpdesk', threadId, { cookies: [cookie] })).statusCode).toBe(404);
    await t.services.chat.pruneThreads();
    const left = await t.database.pool.query('SELECT id FROM chat_threads WHERE id = $1', [threadId]);
    expect(left.rows).toEqual([]);
    expect((await runOf(runId)).id).toBe(runId);
  });

  describe("the organization's view", () => {
    const list = (token: string) =>
      t.request({ method: 'GET', url: `/api/workflows/${workflowId}/chat-threads`, token });

    it('lists the threads newest first, with who wrote, the first message and the count', async () => {
      const { threadId, cookie } = await newThread('helpdesk');
      await send('helpdesk', threadId, 'First question', { cookies: [cookie] });
      await send('helpdesk', threadId, 'Second question', { cookies: [cookie] });
      const threads = (await list(member.token)).json() as ChatThreadSummary[];
      expect(threads[0]).toMatchObject({
        id: threadId,
        visitor: `Visitor ${cookie!.split('=')[1].slice(0, 6)}`,
        firstMessage: 'First question',
        messageCount: 2,
      });
      // A thread without a message is no conversation.
      const empty = await newThread('helpdesk');
      expect(threads.map((thread) => thread.id)).not.toContain(empty.threadId);

      const one = await t.request({
        method: 'GET',
        url: `/api/workflows/${workflowId}/chat-threads/${threadId}`,
        token: member.token,
      });
      expect(one.json()).toEqual((await readThread('helpdesk', threadId, { cookies: [cookie] })).json());
    });

    it('answers another organization 404, lets a member read but not delete, and an admin delete (the runs stay)', async () => {
      const { threadId, cookie } = await newThread('helpdesk');
      const runId = (await send('helpdesk', threadId, 'Delete me', { cookies: [cookie] })).json()
        .runId as string;
      const url = `/api/workflows/${workflowId}/chat-threads/${threadId}`;
      expect((await list(other.token)).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url, token: other.token })).statusCode).toBe(404);
      expect((await t.request({ method: 'DELETE', url, token: other.token })).statusCode).toBe(404);

      expect((await t.request({ method: 'DELETE', url, token: member.token })).statusCode).toBe(403);
      expect((await t.request({ method: 'DELETE', url, token: ada.token })).statusCode).toBe(204);
      expect((await list(ada.token)).json().map((thread: ChatThreadSummary) => thread.id)).not.toContain(
        threadId,
      );
      expect((await readThread('helpdesk', threadId, { cookies: [cookie] })).statusCode).toBe(404);
      expect((await t.request({ method: 'DELETE', url, token: ada.token })).statusCode).toBe(404);
      expect((await runOf(runId)).status).toBe('completed');
    });
  });
});

describe('access', () => {
  it('asks for the password of a password app: by header, or once unlocked by its cookie', async () => {
    await publishedApp('vault', { access: 'password', password: PASSWORD });
    expect((await call('GET', '/api/chat/vault')).json().gate).toBe('password');
    const refused = await call('POST', '/api/chat/vault/threads');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(chatMessages.password);

    const wrong = await call('POST', '/api/chat/vault/threads', { headers: { 'x-chat-password': 'guess' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(chatMessages.wrongPassword);
    const byHeader = await call('POST', '/api/chat/vault/threads', {
      headers: { 'x-chat-password': PASSWORD },
    });
    expect(byHeader.statusCode).toBe(201);

    const badUnlock = await call('POST', '/api/chat/vault/unlock', {}, { password: 'guess again' });
    expect(badUnlock.statusCode).toBe(401);
    expect(badUnlock.json().message).toBe(chatMessages.wrongPassword);
    const unlock = await call('POST', '/api/chat/vault/unlock', {}, { password: PASSWORD });
    expect(unlock.statusCode).toBe(204);
    const unlocked = setCookie(unlock, 'crewline_chat_unlock')!;
    expect(unlocked.line).toContain('Path=/api/chat/vault');
    expect(unlocked.line).toContain('HttpOnly');
    expect((await call('GET', '/api/chat/vault', { cookies: [unlocked.pair] })).json().gate).toBe('ready');
    const { threadId, cookie } = await newThread('vault', { cookies: [unlocked.pair] });
    fake.script([{ content: 'Inside.' }]);
    const sent = await send('vault', threadId, 'Let me in', { cookies: [cookie, unlocked.pair] });
    expect(sent.json()).toMatchObject({ reply: 'Inside.', status: 'done' });
    // Without the unlock cookie, the visitor's own thread is locked again.
    expect((await readThread('vault', threadId, { cookies: [cookie] })).statusCode).toBe(401);
  });

  it('counts wrong passwords per address: past ten in ten minutes, 429 even for the right one', async () => {
    await publishedApp('guarded', { access: 'password', password: PASSWORD });
    const from = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/chat/guarded/unlock',
        remoteAddress: '10.9.8.7',
        payload: { password },
      });
    for (let i = 0; i < 10; i++) expect((await from(`wrong ${i}`)).statusCode).toBe(401);
    const limited = await from(PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await call('POST', '/api/chat/guarded/unlock', {}, { password: PASSWORD })).statusCode).toBe(204);
  });

  it("lets only members write to a members' app; a member's run is trusted and theirs", async () => {
    await publishedApp('staff', { access: 'members' });
    expect((await call('GET', '/api/chat/staff')).json().gate).toBe('sign-in');
    expect((await call('GET', '/api/chat/staff', { token: member.token })).json().gate).toBe('ready');
    for (const caller of [{}, { token: other.token }]) {
      const refused = await call('POST', '/api/chat/staff/threads', caller);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(chatMessages.signIn);
    }

    const { threadId, res } = await newThread('staff', { token: member.token });
    // A member is known by their session: no visitor cookie.
    expect(setCookie(res, 'crewline_chat_visitor')).toBeUndefined();
    fake.script([{ content: 'Noted.' }]);
    const sent = await send('staff', threadId, 'Internal question', { token: member.token });
    const run = await runOf(sent.json().runId);
    expect(run).toMatchObject({ trigger: 'chat', untrusted: false, triggeredBy: member.user.id });
    expect(run.input.visitor).toEqual({ id: `user:${member.user.id}`, member: true });
    // Another member's session does not open it.
    expect((await readThread('staff', threadId, { token: ada.token })).statusCode).toBe(404);
    const threads = await t.request({
      method: 'GET',
      url: `/api/workflows/${run.workflowId}/chat-threads`,
      token: ada.token,
    });
    expect(threads.json()[0].visitor).toBe('Mo Member');
  });

  it('refuses a message past the visitor’s rate limit (429, Retry-After), and every message once switched off (503)', async () => {
    const workflowId = await publishedApp('busy', { rateLimitPerMinute: 2 });
    const { threadId, cookie } = await newThread('busy');
    for (const message of ['one', 'two']) {
      expect((await send('busy', threadId, message, { cookies: [cookie] })).statusCode).toBe(200);
    }
    const limited = await send('busy', threadId, 'three', { cookies: [cookie] });
    expect(limited.statusCode).toBe(429);
    const seconds = Number(limited.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(limited.json().message).toBe(chatMessages.tooMany(seconds));
    // Another visitor has a minute of their own.
    const next = await newThread('busy');
    expect((await send('busy', next.threadId, 'hello', { cookies: [next.cookie] })).statusCode).toBe(200);

    expect((await publish(workflowId, chatApp('busy', { enabled: false }))).statusCode).toBe(200);
    const off = await send('busy', next.threadId, 'still there?', { cookies: [next.cookie] });
    expect(off.statusCode).toBe(503);
    expect(off.json().message).toBe(chatMessages.off);
    expect((await call('GET', '/api/chat/busy')).statusCode).toBe(503);
  });
});

describe('the monthly cap', () => {
  it('stops the app with a clear message once no call fits in it, the 402 naming no figure', async () => {
    // A cap no model call's worst case fits in: the run is refused at its call.
    const workflowId = await publishedApp('thrifty', { monthlyCapUsd: 0.000001 });
    const { threadId, cookie } = await newThread('thrifty');
    const res = await send('thrifty', threadId, 'Can you help?', { cookies: [cookie] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', reply: chatMessages.capReached });
    expect(fake.requests).toHaveLength(0);
    const thread = (await readThread('thrifty', threadId, { cookies: [cookie] })).json();
    expect(thread.messages.at(-1)).toMatchObject({ role: 'assistant', content: chatMessages.capReached });

    // The organization's own cap spent this month: a visitor reads the same words, not its figures.
    const budget = (monthlyCapUsd: number | null) =>
      t.request({
        method: 'PUT',
        url: '/api/organization/budget',
        token: ada.token,
        payload: { monthlyCapUsd },
      });
    expect((await budget(1)).statusCode).toBe(200);
    expect((await publish(workflowId, chatApp('thrifty', { monthlyCapUsd: null }))).statusCode).toBe(200);
    await t.db.execute(sql`insert into spend_counters (organization_id, scope, scope_id, month, spent_micros)
      values (${ada.organization.id}, 'organization', '', date_trunc('month', now() at time zone 'UTC')::date, 2000000)
      on conflict (organization_id, scope, scope_id, month) do update set spent_micros = 2000000`);
    const refused = await send('thrifty', threadId, 'Anyone?', { cookies: [cookie] });
    expect(refused.statusCode, refused.body).toBe(402);
    expect(refused.json()).toEqual({ message: chatMessages.capReached });
    expect((await budget(null)).statusCode).toBe(200);
  });
});

describe('publishing a chat app', () => {
  it('refuses a slug another organization holds (409) and a password app without a password (400)', async () => {
    await publishedApp('taken-slug');
    const theirAgent = await createAgent(t, other.token, { name: 'Theirs' });
    const theirs = await createChainWorkflow(t, other.token, 'Theirs', [theirAgent.id]);
    const taken = await publish(theirs, chatApp('taken-slug'), other.token);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(chatMessages.slugTaken('taken-slug'));

    const noPassword = await publish(theirs, chatApp('their-vault', { access: 'password' }), other.token);
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toBe(chatMessages.passwordRequired);
  });

  it('never answers the password, only that there is one', async () => {
    const workflowId = await publishedApp('secretive', { access: 'password', password: PASSWORD });
    const res = await t.request({
      method: 'GET',
      url: `/api/workflows/${workflowId}/publishing`,
      token: ada.token,
    });
    expect(res.json().chat).toMatchObject({
      slug: 'secretive',
      access: 'password',
      hasPassword: true,
      url: 'http://localhost:5000/chat/secretive',
    });
    expect(res.json().chat).not.toHaveProperty('password');
    // Kept when a later change leaves it out.
    const kept = await publish(workflowId, chatApp('secretive', { access: 'password', name: 'Renamed' }));
    expect(kept.json().chat).toMatchObject({ name: 'Renamed', hasPassword: true });
    expectNeverAnswered(t, [PASSWORD, '$argon2id$']);
  });
});
