// A chat app's hosted page, /chat/<slug> (docs/product-rules.md, Chat apps): routed alone by
// router.tsx, without the app's shell, providers, session check or TanStack Query, so a visitor
// downloads React, this page and Markdown only; phone-first and full height. It reads the app's face
// (name, greeting, suggestions, theme, gate), asks for the password or a member's sign-in when the app
// wants them, then holds the conversation (use-chat-conversation.ts). With `?embed=1` it is the
// widget's frame: no page chrome, and a Close button that asks the embedding page to close it.
import type { ChatAppFace } from '@crewline/contracts';
import { MessageCircle, SquarePen, X } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { useLocation } from 'react-router';

import { FullPageSpinner } from '@/components/full-page-spinner';

import { chatApi, ChatRequestError } from '../chat-api';
import { CHAT_TEXTS, CHAT_UNREACHABLE } from '../chat-texts';
import { accentForeground, useChatScheme } from '../chat-theme';
import { ChatBubble } from '../components/chat-bubble';
import { ChatComposer } from '../components/chat-composer';
import { ChatUnavailable, PasswordGate, SignInGate } from '../components/chat-gates';
import { useChatConversation } from '../use-chat-conversation';

/** What the embedding page hears when the visitor closes the widget's frame. */
const CHAT_CLOSE_MESSAGE = { type: 'crewline-chat:close' } as const;

type FaceState =
  | { kind: 'loading' }
  | { kind: 'ready'; face: ChatAppFace }
  | { kind: 'unavailable'; message: string }
  | { kind: 'unreachable' };

const headerButton =
  'inline-flex h-9 shrink-0 items-center justify-center gap-2 rounded-lg px-2.5 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-(--chat-accent)/50 focus-visible:outline-none disabled:opacity-50';

function closeWidget() {
  window.parent.postMessage(CHAT_CLOSE_MESSAGE, '*');
}

function ChatHeader({
  name,
  embedded,
  onNewConversation,
}: {
  name: string;
  embedded: boolean;
  onNewConversation?: () => void;
}) {
  return (
    <header className="flex shrink-0 items-center gap-3 border-b border-border/70 bg-background/90 px-3 py-2.5 backdrop-blur sm:px-5">
      <span
        aria-hidden="true"
        className="grid size-8 shrink-0 place-items-center rounded-full bg-(--chat-accent) text-(--chat-accent-foreground)"
      >
        <MessageCircle className="size-4" />
      </span>
      <h1 className="min-w-0 flex-1 truncate text-base font-semibold tracking-tight">{name}</h1>
      {onNewConversation && (
        <button
          type="button"
          className={headerButton}
          onClick={onNewConversation}
          aria-label="New conversation"
          title="New conversation"
        >
          <SquarePen className="size-4" aria-hidden="true" />
          <span className="hidden sm:inline">New conversation</span>
        </button>
      )}
      {embedded && (
        <button
          type="button"
          className={headerButton}
          onClick={closeWidget}
          aria-label="Close chat"
          title="Close"
        >
          <X className="size-4.5" aria-hidden="true" />
        </button>
      )}
    </header>
  );
}

function Conversation({
  face,
  embedded,
  onGate,
}: {
  face: ChatAppFace;
  embedded: boolean;
  onGate: () => void;
}) {
  const { messages, restoring, sending, notice, send, startOver } = useChatConversation(face.slug, {
    onGate,
  });
  const [draft, setDraft] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  // A turn read back while its run still goes on: the reply is on its way.
  const replyPending = !sending && last?.role === 'user' && last.status === 'pending';

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages, replyPending]);

  const submit = async (text: string) => {
    setDraft('');
    const taken = await send(text);
    if (!taken) setDraft((current) => current || text);
  };

  return (
    <>
      <ChatHeader
        name={face.name}
        embedded={embedded}
        onNewConversation={messages.length > 0 ? startOver : undefined}
      />
      <div ref={scroller} className="flex-1 overflow-y-auto overscroll-contain">
        <div className="mx-auto flex min-h-full w-full max-w-3xl flex-col gap-4 px-3 py-5 sm:px-5 sm:py-8">
          {face.greeting && (
            <ChatBubble
              message={{ id: 'greeting', role: 'assistant', content: face.greeting, status: 'done' }}
            />
          )}
          <div role="log" aria-live="polite" aria-label="Conversation" className="flex flex-col gap-4">
            {messages.map((message) => (
              <ChatBubble key={message.id} message={message} />
            ))}
            {replyPending && (
              <ChatBubble
                message={{
                  id: 'pending',
                  role: 'assistant',
                  content: '',
                  status: 'pending',
                  note: CHAT_TEXTS.stillRunning,
                }}
              />
            )}
          </div>
          {!restoring && messages.length === 0 && face.suggestions.length > 0 && (
            <ul aria-label="Suggested messages" className="mt-auto flex flex-wrap justify-end gap-2 pt-4">
              {face.suggestions.map((suggestion) => (
                <li key={suggestion}>
                  <button
                    type="button"
                    disabled={sending}
                    className="rounded-full border border-(--chat-accent)/35 bg-background px-3.5 py-1.5 text-left text-sm text-foreground transition-colors hover:border-(--chat-accent) hover:bg-(--chat-accent)/8 focus-visible:ring-2 focus-visible:ring-(--chat-accent)/50 focus-visible:outline-none disabled:opacity-50"
                    onClick={() => void submit(suggestion)}
                  >
                    {suggestion}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <div className="shrink-0 border-t border-border/70 bg-background px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-5">
        <div className="mx-auto w-full max-w-3xl space-y-2">
          {notice && (
            <p
              role="alert"
              className="rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-900 dark:text-amber-200"
            >
              {notice}
            </p>
          )}
          <ChatComposer value={draft} onChange={setDraft} busy={sending} onSend={() => void submit(draft)} />
        </div>
      </div>
    </>
  );
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `slug`: the address's segment after /chat/, as written (router.tsx). */
export function ChatPage({ slug: segment }: { slug: string }) {
  const slug = decoded(segment);
  const embedded = new URLSearchParams(useLocation().search).get('embed') === '1';
  const [state, setState] = useState<FaceState>({ kind: 'loading' });
  // Bumped to read the face again: after unlocking, after a refusal that says the gate changed, on Try again.
  const [reads, setReads] = useState(0);
  const face = state.kind === 'ready' ? state.face : null;
  const scheme = useChatScheme(face?.theme.mode ?? null);

  useEffect(() => {
    const controller = new AbortController();
    chatApi.face(slug, controller.signal).then(
      (answer) => setState({ kind: 'ready', face: answer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const status = error instanceof ChatRequestError ? error.status : 0;
        if (status === 404) setState({ kind: 'unavailable', message: CHAT_TEXTS.notFound });
        else if (status === 503) setState({ kind: 'unavailable', message: CHAT_TEXTS.off });
        else setState({ kind: 'unreachable' });
      },
    );
    return () => controller.abort();
  }, [slug, reads]);

  const readFace = useCallback(() => setReads((n) => n + 1), []);

  const unlock = async (password: string): Promise<string | null> => {
    try {
      await chatApi.unlock(slug, password);
      readFace();
      return null;
    } catch (error) {
      if (error instanceof ChatRequestError && error.status === 401) return CHAT_TEXTS.wrongPassword;
      return error instanceof ChatRequestError ? error.message : CHAT_UNREACHABLE;
    }
  };

  if (state.kind === 'loading') return <FullPageSpinner fullScreen />;
  if (state.kind === 'unavailable') return <ChatUnavailable message={state.message} />;
  if (state.kind === 'unreachable') {
    return (
      <ChatUnavailable
        message={CHAT_UNREACHABLE}
        onRetry={() => {
          setState({ kind: 'loading' });
          readFace();
        }}
      />
    );
  }

  const { face: app } = state;
  const accent = app.theme.accent;
  const style = {
    '--chat-accent': accent,
    '--chat-accent-foreground': accentForeground(accent),
  } as CSSProperties;
  const next = `/chat/${encodeURIComponent(app.slug)}`;

  return (
    <div
      style={style}
      data-scheme={scheme}
      className="flex h-svh flex-col overflow-hidden bg-background text-foreground antialiased"
    >
      <title>{app.name}</title>
      {app.gate === 'ready' ? (
        <Conversation key={app.slug} face={app} embedded={embedded} onGate={readFace} />
      ) : (
        <>
          <ChatHeader name={app.name} embedded={embedded} />
          {app.gate === 'password' ? (
            <PasswordGate onUnlock={unlock} />
          ) : (
            <SignInGate
              text={CHAT_TEXTS.signIn}
              href={`/login?${new URLSearchParams({ next })}`}
              embedded={embedded}
            />
          )}
        </>
      )}
    </div>
  );
}
