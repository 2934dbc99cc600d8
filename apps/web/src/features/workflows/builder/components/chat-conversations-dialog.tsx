// The Chat app section's Conversations: the app's threads, newest first (who wrote, the first message,
// how many messages, when the last one came), and one thread's messages as the visitor saw them, each
// reply linked to the run that wrote it. Owners and admins delete a thread (its runs stay).
import type { ChatThreadSummary } from '@crewline/contracts';
import { ArrowLeft, ExternalLink, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { ChatMarkdown } from '@/components/chat-markdown';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { runDetailsPath } from '@/lib/run-links';

import { useChatThread, useChatThreads, useDeleteChatThread } from '@/features/workflows/api/chat-threads';

const messagesText = (count: number) => `${count} message${count === 1 ? '' : 's'}`;

function ThreadList({ workflowId, onOpen }: { workflowId: string; onOpen: (id: string) => void }) {
  const threads = useChatThreads(workflowId, true);
  if (threads.isPending) {
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading the conversations">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  if (threads.isError) {
    return (
      <div className="space-y-2 text-sm">
        <p className="text-destructive">The conversations could not be loaded.</p>
        <Button type="button" variant="outline" size="sm" onClick={() => void threads.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (threads.data.length === 0) {
    return <p className="py-6 text-center text-sm text-muted-foreground">No conversation yet.</p>;
  }
  return (
    <ul className="divide-y rounded-md border" aria-label="Conversations">
      {threads.data.map((thread) => (
        <li key={thread.id}>
          <button
            type="button"
            className="flex w-full flex-col gap-1 px-3 py-2.5 text-left hover:bg-muted/60 focus-visible:bg-muted/60 focus-visible:outline-none"
            onClick={() => onOpen(thread.id)}
          >
            <span className="flex items-baseline justify-between gap-3 text-xs text-muted-foreground">
              <span className="min-w-0 truncate font-medium text-foreground">{thread.visitor}</span>
              <span className="shrink-0" title={formatDateTime(thread.lastMessageAt)}>
                {formatRelativeTime(thread.lastMessageAt)}
              </span>
            </span>
            <span className="line-clamp-2 text-sm break-words">{thread.firstMessage}</span>
            <span className="text-xs text-muted-foreground">{messagesText(thread.messageCount)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function ThreadView({
  workflowId,
  summary,
  threadId,
  manager,
  onBack,
}: {
  workflowId: string;
  summary: ChatThreadSummary | undefined;
  threadId: string;
  manager: boolean;
  onBack: () => void;
}) {
  const thread = useChatThread(workflowId, threadId);
  const remove = useDeleteChatThread(workflowId);
  const [confirming, setConfirming] = useState(false);

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          All conversations
        </Button>
        {manager && (
          <Button type="button" variant="outline" size="sm" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        )}
      </div>
      {summary && (
        <p className="text-xs text-muted-foreground">
          {summary.visitor} · started {formatDateTime(summary.createdAt)}
        </p>
      )}
      {thread.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : thread.isError ? (
        <p className="text-sm text-destructive">
          {getErrorMessage(thread.error, 'The conversation could not be loaded.')}
        </p>
      ) : (
        <ol className="space-y-3" aria-label="Messages">
          {thread.data.messages.map((message) => (
            <li
              key={message.id}
              className={`rounded-lg border px-3 py-2 text-sm ${
                message.role === 'user' ? 'ml-8 bg-primary/5' : 'mr-8 bg-muted/40'
              } ${message.status === 'failed' ? 'border-destructive/40' : ''}`}
            >
              <div className="mb-1 flex items-center justify-between gap-2 text-xs text-muted-foreground">
                <span className="font-medium">{message.role === 'user' ? 'Visitor' : 'Reply'}</span>
                <span title={formatDateTime(message.createdAt)}>{formatRelativeTime(message.createdAt)}</span>
              </div>
              {message.role === 'user' ? (
                <p className="break-words whitespace-pre-wrap">{message.content}</p>
              ) : (
                <ChatMarkdown text={message.content || '…'} />
              )}
              {message.role === 'assistant' && message.runId && (
                <Link
                  to={runDetailsPath(message.runId)}
                  className="mt-2 inline-flex items-center gap-1 text-xs font-medium text-primary hover:underline"
                >
                  <ExternalLink className="size-3" aria-hidden="true" />
                  View run
                </Link>
              )}
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        title="Delete this conversation?"
        description="The visitor no longer sees it. Its runs stay in the run history."
        open={confirming}
        onOpenChange={setConfirming}
        pending={remove.isPending}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        variant="destructive"
        onConfirm={() =>
          remove.mutate(threadId, {
            onSuccess: () => {
              setConfirming(false);
              toast({ title: 'Conversation deleted' });
              onBack();
            },
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'The conversation could not be deleted',
                description: getErrorMessage(error, 'Try again.'),
              }),
          })
        }
      />
    </div>
  );
}

export function ChatConversationsDialog({
  workflowId,
  appName,
  manager,
  open,
  onOpenChange,
}: {
  workflowId: string;
  appName: string;
  manager: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [openThread, setOpenThread] = useState<string | null>(null);
  const threads = useChatThreads(workflowId, open);
  const summary = threads.data?.find((thread) => thread.id === openThread);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setOpenThread(null);
      }}
    >
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Conversations</DialogTitle>
          <DialogDescription>What people wrote to {appName}, newest first.</DialogDescription>
        </DialogHeader>
        {openThread ? (
          <ThreadView
            workflowId={workflowId}
            threadId={openThread}
            summary={summary}
            manager={manager}
            onBack={() => setOpenThread(null)}
          />
        ) : (
          <ThreadList workflowId={workflowId} onOpen={setOpenThread} />
        )}
      </DialogContent>
    </Dialog>
  );
}
