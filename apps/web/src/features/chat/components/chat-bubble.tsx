// One message of the conversation: the visitor's on the right in the app's accent, the app's on the
// left as Markdown, growing while it streams (`data-streaming`), in red when its run failed.
import { CircleAlert } from 'lucide-react';

import { ChatMarkdown } from '@/components/chat-markdown';

export interface ChatBubbleMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: 'pending' | 'done' | 'failed';
  /** The reply is arriving token by token. */
  streaming?: boolean;
  /** A word under the reply (it is taking longer than usual). */
  note?: string;
}

function Typing() {
  return (
    <span className="inline-flex items-center gap-1 py-1" aria-label="Writing a reply" role="img">
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="size-1.5 animate-bounce rounded-full bg-muted-foreground/70"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}

export function ChatBubble({ message }: { message: ChatBubbleMessage }) {
  if (message.role === 'user') {
    return (
      <div className="flex justify-end" data-role="user">
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-(--chat-accent) px-4 py-2.5 text-[0.9375rem] leading-relaxed whitespace-pre-wrap break-words text-(--chat-accent-foreground) shadow-sm">
          {message.content}
        </div>
      </div>
    );
  }
  const failed = message.status === 'failed';
  return (
    <div
      className="flex justify-start"
      data-role="assistant"
      data-status={message.status}
      data-streaming={message.streaming ? 'true' : undefined}
    >
      <div
        className={`max-w-[92%] min-w-0 rounded-2xl rounded-bl-md px-4 py-2.5 text-[0.9375rem] leading-relaxed shadow-sm ${
          failed
            ? 'border border-destructive/40 bg-destructive/10 text-destructive'
            : 'border border-border/60 bg-muted/60 text-foreground dark:bg-muted/40'
        }`}
      >
        {failed ? (
          <p className="flex items-start gap-2">
            <CircleAlert className="mt-1 size-4 shrink-0" aria-hidden="true" />
            <span className="break-words">{message.content}</span>
          </p>
        ) : message.content ? (
          <ChatMarkdown text={message.content} />
        ) : (
          <Typing />
        )}
        {message.note && <p className="mt-2 text-xs text-muted-foreground">{message.note}</p>}
      </div>
    </div>
  );
}
