import { asc, eq } from 'drizzle-orm';
import { chatMessages as chatMessagesTable, workflowExecutions, type Db } from '@crewline/db';
import {
  chatMessages,
  isRunEnded,
  type ChatMessage,
  type ChatRunInput,
  type ChatTurnStatus,
  type ExecutionStatus,
} from '@crewline/contracts';
import { failureText, replyText } from './chat-turn';

/** A message as stored, with its run's state: the reply is the run's result, never stored twice. */
type StoredTurn = {
  id: string;
  content: string;
  createdAt: Date;
  runId: string | null;
  runStatus: ExecutionStatus | null;
  result: unknown;
  error: string | null;
};

/** A turn's state from its run's: going, answered, or not (a run deleted since counts as not answered). */
function turnStatus(turn: StoredTurn): ChatTurnStatus {
  if (turn.runStatus === 'completed') return 'done';
  if (turn.runStatus === null || isRunEnded(turn.runStatus)) return 'failed';
  return 'pending';
}

/** The reply's text: the run's result, the words a visitor reads when it failed, nothing yet while it runs. */
function replyOf(turn: StoredTurn, status: ChatTurnStatus): string {
  if (status === 'done') return replyText(turn.result) || chatMessages.noReply;
  return status === 'failed' ? failureText(turn.error) : '';
}

/** A thread's messages as a visitor reads them: each message, then its reply (`<message id>:reply`). */
export function threadMessages(turns: StoredTurn[]): ChatMessage[] {
  return turns.flatMap((turn) => {
    const status = turnStatus(turn);
    const createdAt = turn.createdAt.toISOString();
    return [
      { id: turn.id, role: 'user' as const, content: turn.content, runId: turn.runId, status, createdAt },
      {
        id: `${turn.id}:reply`,
        role: 'assistant' as const,
        content: replyOf(turn, status),
        runId: turn.runId,
        status,
        createdAt,
      },
    ];
  });
}

/** The thread as a run's history: every message, and its reply once the run answered it. */
export function historyTurns(turns: StoredTurn[]): ChatRunInput['history'] {
  return turns.flatMap((turn) =>
    turnStatus(turn) === 'done'
      ? [
          { role: 'user' as const, content: turn.content },
          { role: 'assistant' as const, content: replyOf(turn, 'done') },
        ]
      : [{ role: 'user' as const, content: turn.content }],
  );
}

/**
 * A thread's messages with their runs' states and results (a read across the chat's and the
 * executions' tables), in one statement, oldest first. The caller has checked whose thread it is.
 */
export function createChatThreadPresenter(db: Db) {
  return {
    async turns(threadId: string): Promise<StoredTurn[]> {
      return db
        .select({
          id: chatMessagesTable.id,
          content: chatMessagesTable.content,
          createdAt: chatMessagesTable.createdAt,
          runId: chatMessagesTable.runId,
          runStatus: workflowExecutions.status,
          error: workflowExecutions.error,
          result: workflowExecutions.result,
        })
        .from(chatMessagesTable)
        .leftJoin(workflowExecutions, eq(workflowExecutions.id, chatMessagesTable.runId))
        .where(eq(chatMessagesTable.threadId, threadId))
        .orderBy(asc(chatMessagesTable.createdAt), asc(chatMessagesTable.id));
    },
  };
}
export type ChatThreadPresenter = ReturnType<typeof createChatThreadPresenter>;
