import { chatMessages, type ChatAppFace, type ChatThread } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ChatPage } from './chat-page';

const THREAD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const STORED = 'crewline-chat-thread:support';

const face = (fields: Partial<ChatAppFace> = {}): ChatAppFace => ({
  slug: 'support',
  name: 'Acme Support',
  greeting: 'Hi! Ask me about **orders**.',
  suggestions: ['Where is my order?', 'Talk to a person'],
  theme: { mode: 'light', accent: '#0ea5e9' },
  access: 'link',
  gate: 'ready',
  ...fields,
});

const open = (url = '/chat/support') => {
  const view = renderWithApp(<ChatPage slug="support" />, { url });
  return { ...view, user: userEvent.setup() };
};

/** An SSE body the test writes to, event by event. */
function eventStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    body,
    raw: (text: string) => controller.enqueue(encoder.encode(text)),
    send: (event: object) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
    close: () => controller.close(),
  };
}

afterEach(() => {
  localStorage.clear();
  document.documentElement.classList.remove('light', 'dark');
});

describe('the chat page, /chat/<slug>', () => {
  it('sends a suggestion, shows the reply growing token by token, then the whole reply, and keeps the thread', async () => {
    const stream = eventStream();
    const sent: { accept: string | null; body: unknown }[] = [];
    server.use(
      answerGet<ChatAppFace>('/api/chat/support', face()),
      http.post(`${ORIGIN}/api/chat/support/threads`, () =>
        HttpResponse.json({ threadId: THREAD }, { status: 201 }),
      ),
      http.post(`${ORIGIN}/api/chat/support/threads/${THREAD}/messages`, async ({ request }) => {
        sent.push({ accept: request.headers.get('accept'), body: await request.json() });
        return new HttpResponse(stream.body, { headers: { 'Content-Type': 'text/event-stream' } });
      }),
    );
    const { user } = open();

    expect(await screen.findByRole('heading', { name: 'Acme Support' })).toBeTruthy();
    expect((await screen.findByText('orders')).tagName).toBe('STRONG');
    expect(document.documentElement.classList.contains('light')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Where is my order?' }));

    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(log.getAttribute('aria-live')).toBe('polite');
    expect(await within(log).findByText('Where is my order?')).toBeTruthy();
    await waitFor(() =>
      expect(sent).toEqual([{ accept: 'text/event-stream', body: { message: 'Where is my order?' } }]),
    );

    stream.send({ type: 'run', runId: 'run-1' });
    stream.raw('data: {"type":"delta","text":"It ships');
    stream.raw(' "}\n\n');
    stream.send({ type: 'delta', text: 'on **Monday' });
    const reply = await waitFor(() => {
      const bubble = log.querySelector<HTMLElement>('[data-role="assistant"]');
      expect(bubble?.textContent).toBe('It ships on **Monday');
      return bubble!;
    });
    expect(reply.getAttribute('data-streaming')).toBe('true');
    // Suggestions go once the conversation starts.
    expect(screen.queryByRole('button', { name: 'Talk to a person' })).toBeNull();

    stream.send({ type: 'done', runId: 'run-1', reply: 'It ships on **Monday**.' });
    stream.close();
    await waitFor(() => expect(reply.getAttribute('data-streaming')).toBeNull());
    expect(within(reply).getByText('Monday').tagName).toBe('STRONG');
    expect(reply.textContent).toBe('It ships on Monday.');
    expect(localStorage.getItem(STORED)).toBe(THREAD);
  });

  it('renders Markdown harmless: no raw HTML, no javascript: link, links in a new tab without the opener', async () => {
    localStorage.setItem(STORED, THREAD);
    server.use(
      answerGet<ChatAppFace>('/api/chat/support', face()),
      answerGet<ChatThread>(`/api/chat/support/threads/${THREAD}`, {
        threadId: THREAD,
        messages: [
          {
            id: 'm1',
            role: 'user',
            content: 'Links?',
            runId: 'r1',
            status: 'done',
            createdAt: '2026-01-01T10:00:00Z',
          },
          {
            id: 'm2',
            role: 'assistant',
            content:
              'See [the docs](https://example.com/docs) or [this](javascript:alert(1)).\n\n<script>window.pwned = true</script><img src=x onerror="window.pwned = true">',
            runId: 'r1',
            status: 'done',
            createdAt: '2026-01-01T10:00:01Z',
          },
        ],
      }),
    );
    open();

    const docs = await screen.findByRole('link', { name: 'the docs' });
    expect(docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(docs.getAttribute('target')).toBe('_blank');
    expect(docs.getAttribute('rel')).toBe('noopener noreferrer');
    const log = screen.getByRole('log');
    expect(log.querySelector('a[href^="javascript"]')).toBeNull();
    expect(log.querySelector('script, img')).toBeNull();
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
    // The restored thread replaces the suggestions.
    expect(screen.queryByRole('button', { name: 'Where is my order?' })).toBeNull();
  });

  it('starts afresh when the stored conversation has expired', async () => {
    localStorage.setItem(STORED, THREAD);
    server.use(
      answerGet<ChatAppFace>('/api/chat/support', face()),
      http.get(`${ORIGIN}/api/chat/support/threads/${THREAD}`, () =>
        HttpResponse.json({ message: chatMessages.threadNotFound }, { status: 404 }),
      ),
    );
    open();
    expect(await screen.findByRole('button', { name: 'Where is my order?' })).toBeTruthy();
    expect(localStorage.getItem(STORED)).toBeNull();
  });

  it('shows a refusal above the input and gives the message back (429)', async () => {
    localStorage.setItem(STORED, THREAD);
    server.use(
      answerGet<ChatAppFace>('/api/chat/support', face({ suggestions: [] })),
      answerGet<ChatThread>(`/api/chat/support/threads/${THREAD}`, { threadId: THREAD, messages: [] }),
      http.post(`${ORIGIN}/api/chat/support/threads/${THREAD}/messages`, () =>
        HttpResponse.json(
          { message: chatMessages.tooMany(30) },
          { status: 429, headers: { 'Retry-After': '30' } },
        ),
      ),
    );
    const { user } = open();
    const input = await screen.findByLabelText('Message');
    await user.type(input, 'Hello{Shift>}{Enter}{/Shift}there');
    expect((input as HTMLTextAreaElement).value).toBe('Hello\nthere');
    await user.keyboard('{Enter}');

    expect((await screen.findByRole('alert')).textContent).toBe(chatMessages.tooMany(30));
    await waitFor(() => expect((input as HTMLTextAreaElement).value).toBe('Hello\nthere'));
    expect(within(screen.getByRole('log')).queryByText(/Hello/)).toBeNull();
  });

  it('shows the run’s failure in the reply’s bubble', async () => {
    const stream = eventStream();
    server.use(
      answerGet<ChatAppFace>('/api/chat/support', face()),
      http.post(`${ORIGIN}/api/chat/support/threads`, () =>
        HttpResponse.json({ threadId: THREAD }, { status: 201 }),
      ),
      http.post(
        `${ORIGIN}/api/chat/support/threads/${THREAD}/messages`,
        () => new HttpResponse(stream.body, { headers: { 'Content-Type': 'text/event-stream' } }),
      ),
    );
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Talk to a person' }));
    stream.send({ type: 'run', runId: 'run-1' });
    stream.send({ type: 'error', message: chatMessages.failed, runId: 'run-1' });
    stream.close();
    const reply = await waitFor(() => {
      const bubble = document.querySelector<HTMLElement>('[data-role="assistant"][data-status="failed"]');
      expect(bubble).not.toBeNull();
      return bubble!;
    });
    expect(reply.textContent).toBe(chatMessages.failed);
  });

  it('says a reply that takes long is on its way, and shows it once its run has ended', async () => {
    const stream = eventStream();
    let ended = false;
    server.use(
      answerGet<ChatAppFace>('/api/chat/support', face()),
      http.post(`${ORIGIN}/api/chat/support/threads`, () =>
        HttpResponse.json({ threadId: THREAD }, { status: 201 }),
      ),
      http.post(
        `${ORIGIN}/api/chat/support/threads/${THREAD}/messages`,
        () => new HttpResponse(stream.body, { headers: { 'Content-Type': 'text/event-stream' } }),
      ),
      http.get(`${ORIGIN}/api/chat/support/threads/${THREAD}`, () =>
        HttpResponse.json({
          threadId: THREAD,
          messages: [
            {
              id: 'm1',
              role: 'user',
              content: 'Talk to a person',
              runId: 'run-1',
              status: 'done',
              createdAt: '2026-01-01T10:00:00Z',
            },
            {
              id: 'm2',
              role: 'assistant',
              content: ended ? 'Someone will call you.' : '',
              runId: 'run-1',
              status: ended ? 'done' : 'pending',
              createdAt: '2026-01-01T10:00:01Z',
            },
          ],
        } satisfies ChatThread),
      ),
    );
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Talk to a person' }));
    stream.send({ type: 'run', runId: 'run-1' });
    stream.send({ type: 'error', message: chatMessages.stillRunning, runId: 'run-1' });
    stream.close();
    expect(await screen.findByText(chatMessages.stillRunning)).toBeTruthy();
    ended = true;
    expect(await screen.findByText('Someone will call you.', undefined, { timeout: 6_000 })).toBeTruthy();
    expect(screen.queryByText(chatMessages.stillRunning)).toBeNull();
  });

  it('asks for the password, says when it is wrong, and opens the chat once unlocked', async () => {
    let unlocked = false;
    server.use(
      http.get(`${ORIGIN}/api/chat/support`, () =>
        HttpResponse.json(face({ access: 'password', gate: unlocked ? 'ready' : 'password' })),
      ),
      http.post(`${ORIGIN}/api/chat/support/unlock`, async ({ request }) => {
        const { password } = (await request.json()) as { password: string };
        if (password !== 'open sesame') {
          return HttpResponse.json({ message: chatMessages.wrongPassword }, { status: 401 });
        }
        unlocked = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = open();
    expect(await screen.findByText(chatMessages.password)).toBeTruthy();
    expect(screen.queryByLabelText('Message')).toBeNull();
    await user.type(screen.getByLabelText('Password'), 'guess');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(chatMessages.wrongPassword);

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'open sesame');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByLabelText('Message')).toBeTruthy();
  });

  it('sends a visitor of a members-only app to sign in, and back', async () => {
    server.use(answerGet<ChatAppFace>('/api/chat/support', face({ access: 'members', gate: 'sign-in' })));
    open();
    expect(await screen.findByText(chatMessages.signIn)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login?next=%2Fchat%2Fsupport',
    );
  });

  it('says a missing app or a switched-off one in a whole page', async () => {
    server.use(
      http.get(`${ORIGIN}/api/chat/support`, () =>
        HttpResponse.json({ message: chatMessages.notFound }, { status: 404 }),
      ),
    );
    const missing = open();
    expect(await screen.findByRole('heading', { name: chatMessages.notFound })).toBeTruthy();
    missing.unmount();

    server.use(
      http.get(`${ORIGIN}/api/chat/support`, () =>
        HttpResponse.json({ message: chatMessages.off }, { status: 503 }),
      ),
    );
    open();
    expect(await screen.findByRole('heading', { name: chatMessages.off })).toBeTruthy();
  });

  it('follows the app’s dark theme and, embedded, asks the page around it to close', async () => {
    server.use(
      answerGet<ChatAppFace>('/api/chat/support', face({ theme: { mode: 'dark', accent: '#fde047' } })),
    );
    const post = vi.spyOn(window.parent, 'postMessage').mockImplementation(() => {});
    const { user } = open('/chat/support?embed=1');
    await user.click(await screen.findByRole('button', { name: 'Close chat' }));
    expect(post).toHaveBeenCalledWith({ type: 'crewline-chat:close' }, '*');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    post.mockRestore();
  });
});
