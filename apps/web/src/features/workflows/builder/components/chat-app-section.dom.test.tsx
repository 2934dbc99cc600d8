import {
  chatMessages,
  type ChatThread,
  type ChatThreadSummary,
  type ChatPublishing,
  type OrganizationRole,
  type Session,
  type UpdateWorkflowPublishing,
  type Workflow,
  type WorkflowPublishing,
} from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { agentFixture, openBuilder, workflowFixture } from '@/testing/builder';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { aSession } from '@/testing/session';

const agents = [agentFixture({ id: 'a1', name: 'Helper', role: 'Answers', goal: 'Help' })];

const workflow = (fields: Partial<Workflow> = {}) =>
  workflowFixture({
    name: 'Support Desk (EU)',
    nodes: [
      { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
      { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Helper' } },
      { id: 'end', type: 'end', position: { x: 100, y: 400 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
    ...fields,
  });

const savedApp = (fields: Partial<ChatPublishing> = {}): ChatPublishing => ({
  enabled: true,
  slug: 'support-desk',
  name: 'Support Desk',
  greeting: 'Hi!',
  suggestions: ['Where is my order?'],
  theme: { mode: 'auto', accent: '#4f46e5' },
  access: 'password',
  hasPassword: true,
  allowedOrigins: ['https://www.example.com'],
  rateLimitPerMinute: 10,
  appRateLimitPerMinute: 120,
  monthlyCapUsd: null,
  url: 'https://crewline.example.com/chat/support-desk',
  ...fields,
});

beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

/**
 * The builder's Settings tab on `wf` for a viewer of `role`, its Chat app section once shown; PUT
 * …/publishing answers `answer` (a status and body), or the saved app made of what was sent.
 */
async function openChat({
  wf = workflow({ status: 'active' }),
  role = 'admin',
  saved = { mcp: null, chat: null },
  answer,
}: {
  wf?: Workflow;
  role?: OrganizationRole;
  saved?: WorkflowPublishing;
  answer?: { status: number; body: unknown };
} = {}) {
  const puts: UpdateWorkflowPublishing[] = [];
  const opened = await openBuilder({
    workflow: wf,
    agents,
    handlers: [
      answerGet<Session>('/api/auth/me', aSession({ role })),
      answerGet<WorkflowPublishing>('/api/workflows/wf-1/publishing', saved),
      http.put(`${ORIGIN}/api/workflows/wf-1/publishing`, async ({ request }) => {
        const body = (await request.json()) as UpdateWorkflowPublishing;
        puts.push(body);
        if (answer) return HttpResponse.json(answer.body as object, { status: answer.status });
        const chat = body.chat!;
        return HttpResponse.json({
          mcp: null,
          chat: savedApp({
            ...chat,
            greeting: chat.greeting ?? '',
            suggestions: chat.suggestions ?? [],
            theme: { mode: chat.theme?.mode ?? 'auto', accent: chat.theme?.accent ?? '#4f46e5' },
            allowedOrigins: chat.allowedOrigins ?? [],
            rateLimitPerMinute: chat.rateLimitPerMinute ?? 10,
            appRateLimitPerMinute: chat.appRateLimitPerMinute ?? 120,
            monthlyCapUsd: chat.monthlyCapUsd ?? null,
            hasPassword: chat.access === 'password',
            url: `https://crewline.example.com/chat/${chat.slug}`,
          }),
        } satisfies WorkflowPublishing);
      }),
    ],
  });
  await opened.user.click(screen.getByRole('tab', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Chat app' });
  return { ...opened, puts, section };
}

describe("the builder's Chat app section (Settings tab)", () => {
  it('publishes with the slug from the name, sends `{ chat }` alone, then shows the address and the widget tag', async () => {
    const { user, section, puts } = await openChat();
    const publish = await within(section).findByRole('switch', { name: 'Publish as a chat app' });
    await waitFor(() => expect(publish.hasAttribute('disabled')).toBe(false));
    await user.click(publish);

    expect((within(section).getByLabelText('Name') as HTMLInputElement).value).toBe('Support Desk (EU)');
    expect((within(section).getByLabelText('Slug') as HTMLInputElement).value).toBe('support-desk-eu');
    await user.type(within(section).getByLabelText('Greeting'), 'Hello! How can I help?');
    await user.click(within(section).getByRole('button', { name: 'Add a suggestion' }));
    await user.type(within(section).getByLabelText('Suggested message 1'), 'Track my order');
    await user.click(within(section).getByRole('radio', { name: 'Dark' }));
    await user.click(within(section).getByRole('radio', { name: 'Anyone with the link' }));
    await user.type(
      within(section).getByLabelText('Sites that may embed it'),
      'https://www.example.com/{Enter}https://shop.example.com',
    );
    await user.type(within(section).getByLabelText('Monthly spending cap (USD)'), '25');
    await user.click(within(section).getByRole('button', { name: 'Save chat app' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      chat: {
        enabled: true,
        name: 'Support Desk (EU)',
        slug: 'support-desk-eu',
        greeting: 'Hello! How can I help?',
        suggestions: ['Track my order'],
        theme: { mode: 'dark', accent: '#4f46e5' },
        access: 'link',
        allowedOrigins: ['https://www.example.com', 'https://shop.example.com'],
        rateLimitPerMinute: 10,
        appRateLimitPerMinute: 120,
        monthlyCapUsd: 25,
      },
    });
    expect(
      (await within(section).findByLabelText('Chat page address', { selector: 'code' })).textContent,
    ).toBe('https://crewline.example.com/chat/support-desk-eu');
    expect(within(section).getByLabelText('Widget tag', { selector: 'code' }).textContent).toBe(
      '<script src="https://crewline.example.com/widget.js" data-app="support-desk-eu" async></script>',
    );
    expect(within(section).getByRole('link', { name: 'Open Chat page address' }).getAttribute('href')).toBe(
      'https://crewline.example.com/chat/support-desk-eu',
    );
    expect(within(section).getByRole('button', { name: 'Copy Widget tag' })).toBeTruthy();
  });

  it('refuses what the contract refuses under its field, before sending anything', async () => {
    const { user, section, puts } = await openChat();
    await user.click(await within(section).findByRole('switch', { name: 'Publish as a chat app' }));
    const slug = within(section).getByLabelText('Slug');
    await user.clear(slug);
    await user.type(slug, 'A');
    const perVisitor = within(section).getByLabelText('Messages per visitor per minute');
    await user.clear(perVisitor);
    await user.type(perVisitor, '0');
    await user.click(within(section).getByRole('radio', { name: 'Anyone with the link and the password' }));
    await user.click(within(section).getByRole('button', { name: 'Save chat app' }));

    expect(
      await within(section).findByText('Slug: 3 to 48 lower-case letters, digits or single dashes'),
    ).toBeTruthy();
    expect(
      within(section).getByText('Messages per visitor per minute: a whole number from 1 to 10,000'),
    ).toBeTruthy();
    expect(within(section).getByText(chatMessages.passwordRequired)).toBeTruthy();
    expect(slug.getAttribute('aria-invalid')).toBe('true');
    expect(puts).toHaveLength(0);
  });

  it('keeps a set password unless a new one is typed, and shows the 409 of a taken slug under Slug', async () => {
    const taken = chatMessages.slugTaken('support-desk');
    const { user, section, puts } = await openChat({
      saved: { mcp: null, chat: savedApp() },
      answer: { status: 409, body: { message: taken } },
    });
    const password = (await within(section).findByLabelText('Password')) as HTMLInputElement;
    expect(password.placeholder).toBe('Leave empty to keep the current password');
    await user.type(within(section).getByLabelText('Greeting'), ' Welcome.');
    await user.click(within(section).getByRole('button', { name: 'Save chat app' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].chat).not.toHaveProperty('password');
    expect(puts[0]).not.toHaveProperty('mcp');
    const message = await within(section).findByText(taken);
    const slug = within(section).getByLabelText('Slug');
    expect(slug.getAttribute('aria-describedby')).toContain(message.id);

    await user.type(password, 'a new secret');
    await user.click(within(section).getByRole('button', { name: 'Save chat app' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1].chat).toMatchObject({ access: 'password', password: 'a new secret' });
  });

  it('shows a server field error under its field (chat.theme.accent)', async () => {
    const { user, section } = await openChat({
      saved: { mcp: null, chat: savedApp({ access: 'link', hasPassword: false }) },
      answer: {
        status: 400,
        body: {
          message: 'Invalid input',
          errors: [{ path: 'chat.theme.accent', message: 'Pick another color' }],
        },
      },
    });
    await user.type(await within(section).findByLabelText('Greeting'), '!');
    await user.click(within(section).getByRole('button', { name: 'Save chat app' }));
    expect(await within(section).findByText('Pick another color')).toBeTruthy();
    expect(within(section).getByLabelText('Accent color').getAttribute('aria-invalid')).toBe('true');
    expect(within(section).queryByRole('alert')).toBeNull();
  });

  it('says a draft cannot be published and keeps its switch off', async () => {
    const { section } = await openChat({ wf: workflow({ status: 'draft' }) });
    expect(await within(section).findByText(chatMessages.notActive)).toBeTruthy();
    const publish = within(section).getByRole('switch', { name: 'Publish as a chat app' });
    expect(publish.getAttribute('aria-checked')).toBe('false');
    expect(publish.hasAttribute('disabled')).toBe(true);
  });

  it('shows a member the app read-only, with no Save', async () => {
    const { section } = await openChat({ role: 'member', saved: { mcp: null, chat: savedApp() } });
    expect(await within(section).findByText('Only owners and admins can publish chat apps.')).toBeTruthy();
    const name = (await within(section).findByLabelText('Name')) as HTMLInputElement;
    expect(name.value).toBe('Support Desk');
    expect(name.disabled).toBe(true);
    expect(within(section).queryByRole('button', { name: 'Save chat app' })).toBeNull();
  });

  it("lists the app's conversations, shows one with its replies' runs, and deletes it after confirming", async () => {
    const threadId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const deleted: string[] = [];
    const { user, section } = await openChat({ saved: { mcp: null, chat: savedApp() } });
    const summary: ChatThreadSummary = {
      id: threadId,
      visitor: 'Visitor 3f2a',
      firstMessage: 'Where is my order?',
      messageCount: 2,
      createdAt: '2026-01-01T10:00:00.000Z',
      lastMessageAt: '2026-01-01T10:01:00.000Z',
    };
    const thread: ChatThread = {
      threadId,
      messages: [
        {
          id: 'm1',
          role: 'user',
          content: 'Where is my order?',
          runId: 'run-1',
          status: 'done',
          createdAt: summary.createdAt,
        },
        {
          id: 'm2',
          role: 'assistant',
          content: 'It ships **tomorrow**. <script>alert(1)</script>',
          runId: 'run-1',
          status: 'done',
          createdAt: summary.lastMessageAt,
        },
      ],
    };
    server.use(
      http.get(`${ORIGIN}/api/workflows/wf-1/chat-threads`, () =>
        HttpResponse.json(deleted.length > 0 ? [] : [summary]),
      ),
      answerGet<ChatThread>(`/api/workflows/wf-1/chat-threads/${threadId}`, thread),
      http.delete(`${ORIGIN}/api/workflows/wf-1/chat-threads/:threadId`, ({ params }) => {
        deleted.push(String(params.threadId));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await user.click(await within(section).findByRole('button', { name: 'Conversations' }));
    const dialog = await screen.findByRole('dialog', { name: 'Conversations' });
    await user.click(await within(dialog).findByRole('button', { name: /Visitor 3f2a/ }));

    const tomorrow = await within(dialog).findByText('tomorrow');
    expect(tomorrow.tagName).toBe('STRONG');
    expect(dialog.querySelector('script')).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'View run' }).getAttribute('href')).toBe(
      '/workflows?tab=executions&run=run-1',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this conversation?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual([threadId]));
    expect(await within(dialog).findByText('No conversation yet.')).toBeTruthy();
  });
});
