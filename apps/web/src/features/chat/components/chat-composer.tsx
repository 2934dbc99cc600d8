// Where the visitor writes: a labelled textarea that grows with its text (Enter sends, Shift+Enter
// starts a new line) and a Send button in the app's accent.
import { ArrowUp } from 'lucide-react';
import { useId, useLayoutEffect, useRef, type KeyboardEvent } from 'react';

import { CHAT_MAX_MESSAGE_CHARS } from '../chat-texts';

export function ChatComposer({
  value,
  onChange,
  onSend,
  busy,
  disabled = false,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** A reply is on its way: typing goes on, sending waits. */
  busy: boolean;
  disabled?: boolean;
}) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const canSend = !busy && !disabled && value.trim().length > 0;

  useLayoutEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, 192)}px`;
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  };

  return (
    <form
      className="flex items-end gap-2 rounded-2xl border border-input bg-background p-2 shadow-sm focus-within:border-(--chat-accent) focus-within:ring-2 focus-within:ring-(--chat-accent)/25 dark:bg-input/30"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) onSend();
      }}
    >
      <label htmlFor={id} className="sr-only">
        Message
      </label>
      <textarea
        id={id}
        ref={area}
        rows={1}
        value={value}
        disabled={disabled}
        maxLength={CHAT_MAX_MESSAGE_CHARS}
        placeholder="Write a message…"
        className="max-h-48 min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-base leading-6 outline-none placeholder:text-muted-foreground disabled:opacity-60"
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button
        type="submit"
        aria-label="Send"
        title="Send (Enter)"
        disabled={!canSend}
        className="grid size-9 shrink-0 place-items-center rounded-xl bg-(--chat-accent) text-(--chat-accent-foreground) transition-opacity hover:opacity-90 focus-visible:ring-2 focus-visible:ring-(--chat-accent)/50 focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none disabled:opacity-40"
      >
        <ArrowUp className="size-4.5" aria-hidden="true" />
      </button>
    </form>
  );
}
