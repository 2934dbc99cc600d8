// The chat page's calls to the public chat routes (endpoints.chat): plain fetch, no API client and no
// TanStack Query (the page downloads neither). The visitor cookie rides along on its own (same
// origin); a signed-in member's token is sent too, so a members-only app knows them.
import type { ChatAppFace, ChatThread } from '@crewline/contracts';
import * as paths from '@crewline/contracts/paths';

import { getAuthToken } from '@/lib/auth-token';

import { CHAT_TEXTS, CHAT_UNREACHABLE } from './chat-texts';

/** A refusal of the server (or no answer: status 0), with the words to show. */
export class ChatRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ChatRequestError';
  }
}

function urlOf(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** What a refusal says: the server's message, else the product's words for its status. */
async function errorOf(response: Response): Promise<ChatRequestError> {
  let message: string | null = null;
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) message = body.message;
  } catch {
    // not JSON: the status speaks
  }
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after'));
    if (!message || !/\d/.test(message)) {
      message = CHAT_TEXTS.tooMany(Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60);
    }
  }
  const fallback: Record<number, string> = {
    402: CHAT_TEXTS.capReached,
    404: CHAT_TEXTS.notFound,
    503: CHAT_TEXTS.off,
  };
  return new ChatRequestError(message ?? fallback[response.status] ?? CHAT_UNREACHABLE, response.status);
}

async function send(
  method: 'GET' | 'POST',
  url: string,
  {
    body,
    accept = 'application/json',
    signal,
  }: { body?: unknown; accept?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ChatRequestError(CHAT_UNREACHABLE, 0);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

export const chatApi = {
  face: async (slug: string, signal?: AbortSignal): Promise<ChatAppFace> =>
    (await send('GET', urlOf(paths.chat.face, { slug }), { signal })).json() as Promise<ChatAppFace>,

  unlock: async (slug: string, password: string): Promise<void> => {
    await send('POST', urlOf(paths.chat.unlock, { slug }), { body: { password } });
  },

  createThread: async (slug: string): Promise<string> => {
    const answer = (await (await send('POST', urlOf(paths.chat.threads, { slug }))).json()) as {
      threadId: string;
    };
    return answer.threadId;
  },

  thread: async (slug: string, threadId: string, signal?: AbortSignal): Promise<ChatThread> =>
    (
      await send('GET', urlOf(paths.chat.thread, { slug, threadId }), { signal })
    ).json() as Promise<ChatThread>,

  /** Sends a message asking for the reply as a stream; the caller reads the answer (SSE, or JSON). */
  sendMessage: (slug: string, threadId: string, message: string, signal?: AbortSignal): Promise<Response> =>
    send('POST', urlOf(paths.chat.messages, { slug, threadId }), {
      body: { message },
      accept: 'text/event-stream',
      signal,
    }),
};
