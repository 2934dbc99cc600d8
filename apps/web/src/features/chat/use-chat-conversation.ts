// The visitor's conversation with a chat app: the thread kept per app in localStorage and read back
// on a visit (an expired one is forgotten), a message sent with its reply streamed in token by token
// (chat-stream.ts) and then replaced by the whole reply, a turn still running polled until it ends,
// and a new conversation on request. A refusal before the reply (too many messages, the month's
// budget, switched off) is a notice above the input, and the message goes back into it.
import type { ChatMessage, ChatReply } from '@crewline/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';

import { chatApi, ChatRequestError } from './chat-api';
import { parseChatEvent, readEventStream } from './chat-stream';
import { CHAT_TEXTS, CHAT_UNREACHABLE } from './chat-texts';
import type { ChatBubbleMessage } from './components/chat-bubble';
import { threadStorage } from './thread-storage';

/** How often a turn whose run still goes on is read again. */
const POLL_MS = 4_000;

/** A message as the server keeps it; a reply whose run still goes on is empty until it ends. */
const fromServer = (message: ChatMessage): ChatBubbleMessage => ({
  id: message.id,
  role: message.role,
  content: message.content,
  status: message.status,
  ...(message.role === 'assistant' && message.status === 'pending' && { note: CHAT_TEXTS.stillRunning }),
});

type ReplyPatch = (current: ChatBubbleMessage) => Partial<ChatBubbleMessage>;

export function useChatConversation(slug: string, { onGate }: { onGate: () => void }) {
  const [messages, setMessages] = useState<ChatBubbleMessage[]>([]);
  const [restoring, setRestoring] = useState(() => threadStorage.get(slug) !== null);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const thread = useRef<string | null>(threadStorage.get(slug));
  const inFlight = useRef<AbortController | null>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      const threadId = thread.current;
      if (!threadId) return;
      try {
        const answer = await chatApi.thread(slug, threadId, signal);
        if (thread.current === threadId) setMessages(answer.messages.map(fromServer));
      } catch (error) {
        if (signal?.aborted) return;
        const status = error instanceof ChatRequestError ? error.status : 0;
        if (status === 404) {
          // Expired or deleted: the next message starts a new one.
          threadStorage.clear(slug);
          thread.current = null;
        } else if (status === 401) onGate();
        else setNotice(error instanceof ChatRequestError ? error.message : CHAT_UNREACHABLE);
      }
    },
    [slug, onGate],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal).finally(() => {
      if (!controller.signal.aborted) setRestoring(false);
    });
    return () => controller.abort();
  }, [load]);

  // A turn still running (read back that way, or the request stopped waiting): read it again.
  const last = messages.at(-1);
  const waiting = !sending && !restoring && last?.status === 'pending';
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, messages, load]);

  const remember = (threadId: string) => {
    thread.current = threadId;
    threadStorage.set(slug, threadId);
  };

  /** POST the message to the open thread (a new one first when there is none, or it expired). */
  const post = async (message: string, signal: AbortSignal): Promise<Response> => {
    let threadId = thread.current;
    const fresh = !threadId;
    if (!threadId) {
      threadId = await chatApi.createThread(slug);
      remember(threadId);
    }
    try {
      return await chatApi.sendMessage(slug, threadId, message, signal);
    } catch (error) {
      if (fresh || !(error instanceof ChatRequestError) || error.status !== 404) throw error;
      remember(await chatApi.createThread(slug));
      return chatApi.sendMessage(slug, thread.current!, message, signal);
    }
  };

  /** Sends `text`; false when it was refused before any reply (its words are then the notice). */
  const send = async (text: string): Promise<boolean> => {
    const message = text.trim();
    if (!message || sending) return false;
    setSending(true);
    setNotice(null);
    const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const userId = `local-user-${stamp}`;
    const replyId = `local-reply-${stamp}`;
    setMessages((list) => [
      ...list,
      { id: userId, role: 'user', content: message, status: 'done' },
      { id: replyId, role: 'assistant', content: '', status: 'pending', streaming: true },
    ]);
    const update = (patch: ReplyPatch) =>
      setMessages((list) => list.map((m) => (m.id === replyId ? { ...m, ...patch(m) } : m)));
    const controller = new AbortController();
    inFlight.current = controller;
    let response: Response | null = null;
    try {
      response = await post(message, controller.signal);
      let ended = false;
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream') && response.body) {
        await readEventStream(response.body, (data) => {
          const event = parseChatEvent(data);
          if (!event || ended) return;
          if (event.type === 'delta') update((m) => ({ content: m.content + event.text }));
          else if (event.type === 'done') {
            ended = true;
            update(() => ({ content: event.reply, status: 'done', streaming: false }));
          } else if (event.type === 'error') {
            ended = true;
            // The request stopped waiting while the run goes on: the reply is read again until it is
            // there. Any other error is the run's failure, told in the reply's place.
            update(() =>
              event.message === CHAT_TEXTS.stillRunning
                ? { status: 'pending', streaming: false, note: event.message }
                : { content: event.message, status: 'failed', streaming: false },
            );
          }
        });
      } else {
        const reply = (await response.json()) as ChatReply;
        ended = true;
        update(() =>
          reply.status === 'pending'
            ? { status: 'pending', streaming: false, note: CHAT_TEXTS.stillRunning }
            : {
                content: reply.reply ?? CHAT_TEXTS.failed,
                status: reply.status,
                streaming: false,
              },
        );
      }
      if (!ended) update(() => ({ content: CHAT_TEXTS.failed, status: 'failed', streaming: false }));
      return true;
    } catch (error) {
      if (controller.signal.aborted) return true;
      if (response) {
        // The stream broke off after the message was taken.
        update(() => ({ content: CHAT_TEXTS.failed, status: 'failed', streaming: false }));
        return true;
      }
      setMessages((list) => list.filter((m) => m.id !== userId && m.id !== replyId));
      const refusal = error instanceof ChatRequestError ? error : null;
      if (refusal?.status === 401) onGate();
      setNotice(refusal?.message ?? CHAT_UNREACHABLE);
      return false;
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setSending(false);
      }
    }
  };

  const startOver = () => {
    inFlight.current?.abort();
    inFlight.current = null;
    thread.current = null;
    threadStorage.clear(slug);
    setMessages([]);
    setNotice(null);
    setSending(false);
  };

  return { messages, restoring, sending, notice, send, startOver };
}
