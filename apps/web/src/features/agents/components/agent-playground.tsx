import { AGENT_CHAT_MESSAGE_LIMIT, type Agent } from '@crewline/contracts';
import { Bot, MessageSquarePlus, SendHorizontal, Square } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Textarea } from '@/components/ui/textarea';

import { providerLabel } from '../agent-display';
import { isSendKey } from '../playground-conversation';
import type { AgentChat } from '../api/agent-chat';
import { PlaygroundTurn } from './agent-playground-turn';

/** Within this many pixels of the end, the conversation follows a reply as it grows. */
const FOLLOW_SLACK = 80;

/**
 * The agent's playground: a conversation with its model, prompt and tools, each reply streamed in
 * with its tool calls, tokens and time. A right-hand panel, the whole screen on a phone. Closing it
 * stops a reply being streamed.
 */
export function AgentPlayground({
  agent,
  chat,
  open,
  onOpenChange,
}: {
  agent: Agent;
  chat: AgentChat;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [draft, setDraft] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const hintId = useId();
  const { state, streaming } = chat;

  // Focus returns to the message box when a reply ends.
  useEffect(() => {
    if (open && !streaming) textarea.current?.focus();
  }, [open, streaming]);

  // The conversation keeps its end in view while a reply grows, unless the user scrolled up to read.
  useEffect(() => {
    const element = log.current;
    if (element && follow.current) element.scrollTop = element.scrollHeight;
  }, [state]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (chat.send(draft)) {
      setDraft('');
      follow.current = true;
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!isSendKey({ ...event, isComposing: event.nativeEvent.isComposing })) return;
    event.preventDefault();
    if (!streaming) submit();
  };

  return (
    <Sheet
      open={open}
      onOpenChange={(next) => {
        if (!next) chat.stop();
        onOpenChange(next);
      }}
    >
      <SheetContent
        side="right"
        className="w-full gap-0 p-0 sm:max-w-xl"
        data-testid="agent-playground"
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          textarea.current?.focus();
        }}
      >
        <SheetHeader className="flex-row items-center gap-3 border-b px-5 py-4 pr-12">
          <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-violet-500/10 text-violet-600 dark:text-violet-400">
            <Bot className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <SheetTitle className="truncate">{agent.name}</SheetTitle>
            <SheetDescription className="truncate text-xs">
              Playground · {providerLabel(agent.llmProvider)} · {agent.llmModel}
            </SheetDescription>
          </div>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              chat.newChat();
              setDraft('');
              textarea.current?.focus();
            }}
            disabled={state.turns.length === 0}
            aria-label="New chat"
          >
            <MessageSquarePlus aria-hidden="true" />
            <span className="hidden sm:inline">New chat</span>
          </Button>
        </SheetHeader>

        <div
          ref={log}
          role="log"
          aria-live="polite"
          aria-label={`Conversation with ${agent.name}`}
          // Screen readers hear a reply once it is whole, not piece by piece.
          aria-busy={streaming}
          className="flex-1 overflow-y-auto px-4 py-4 sm:px-5"
          onScroll={(event) => {
            const element = event.currentTarget;
            follow.current = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK;
          }}
        >
          {state.turns.length === 0 ? (
            <div className="grid h-full place-items-center text-center text-sm text-muted-foreground">
              <p className="max-w-xs">
                Ask {agent.name} anything: it answers with its prompt, model settings and enabled tools.
              </p>
            </div>
          ) : (
            <ol className="space-y-4">
              {state.turns.map((turn) => (
                <PlaygroundTurn key={turn.id} turn={turn} />
              ))}
            </ol>
          )}
        </div>

        <form className="space-y-1.5 border-t p-3 sm:px-5" onSubmit={submit}>
          <div className="flex items-end gap-2">
            <Textarea
              ref={textarea}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={onKeyDown}
              placeholder={`Message ${agent.name}…`}
              aria-label="Message"
              aria-describedby={hintId}
              maxLength={AGENT_CHAT_MESSAGE_LIMIT}
              rows={1}
              className="max-h-40 min-h-10 resize-none"
            />
            {streaming ? (
              <Button type="button" variant="outline" onClick={chat.stop} aria-label="Stop the reply">
                <Square className="fill-current" aria-hidden="true" />
                <span className="hidden sm:inline">Stop</span>
              </Button>
            ) : (
              <Button type="submit" disabled={!draft.trim()} aria-label="Send message">
                <SendHorizontal aria-hidden="true" />
                <span className="hidden sm:inline">Send</span>
              </Button>
            )}
          </div>
          <p id={hintId} className="text-xs text-muted-foreground">
            Enter sends, Shift+Enter adds a line. This conversation is not saved.
          </p>
        </form>
      </SheetContent>
    </Sheet>
  );
}
