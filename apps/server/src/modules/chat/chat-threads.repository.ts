import { and, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import { chatMessages, chatThreads, type Db, type SqlExecutor } from '@crewline/db';
import { CHAT_THREAD_DAYS, type ChatThreadSummary } from '@crewline/contracts';
import { isMemberSql } from '../auth/memberships.columns';
import { userDisplayName } from '../auth/users.columns';

/** A thread is kept this long after its last message (chat_threads_last_message_idx). */
const kept = sql`now() - make_interval(days => ${CHAT_THREAD_DAYS})`;
/** How long the visitor's name in the threads list is: enough to tell visitors apart, short. */
const VISITOR_NAME_CHARS = 6;

/**
 * The chat apps' threads and their messages (modules/chat owns chat_threads and chat_messages). A
 * thread is one visitor's, of one app; a message is written with the run that answers it, in that
 * run's start transaction. A thread older than CHAT_THREAD_DAYS since its last message is gone for
 * every read, and the periodic prune deletes it.
 */
export function createChatThreadsRepository(db: Db) {
  /** Whether the thread is there, not expired, and meets `conditions` (whose it is). */
  async function keptThread(threadId: string, ...conditions: SQL[]): Promise<boolean> {
    const [row] = await db
      .select({ id: chatThreads.id })
      .from(chatThreads)
      .where(and(eq(chatThreads.id, threadId), ...conditions, gt(chatThreads.lastMessageAt, kept)));
    return row !== undefined;
  }

  return {
    async create(thread: {
      organizationId: string;
      workflowId: string;
      visitorId: string;
      userId: string | null;
    }): Promise<string> {
      const [row] = await db.insert(chatThreads).values(thread).returning({ id: chatThreads.id });
      return row.id;
    },

    /** Whether the thread is the visitor's, of the app's workflow, and not expired. */
    isVisitors: (threadId: string, workflowId: string, visitorId: string): Promise<boolean> =>
      keptThread(threadId, eq(chatThreads.workflowId, workflowId), eq(chatThreads.visitorId, visitorId)),

    /** Whether the thread is of the organization's workflow, and not expired (the organization's view). */
    isWorkflows: (organizationId: string, workflowId: string, threadId: string): Promise<boolean> =>
      keptThread(
        threadId,
        eq(chatThreads.organizationId, organizationId),
        eq(chatThreads.workflowId, workflowId),
      ),

    /**
     * Part of a message's run start (`executor` is its transaction): the message with its run, and
     * the thread's last message time. False when the thread is gone (deleted meanwhile): nothing is
     * written, and the caller throws so that no run starts either.
     */
    async addMessage(
      executor: SqlExecutor,
      message: { threadId: string; organizationId: string; runId: string; content: string },
    ): Promise<boolean> {
      const { rows } = await executor.executeSql(
        `with thread as (
            update chat_threads set last_message_at = now()
            where id = $1 and organization_id = $2
            returning id, organization_id
          )
          insert into chat_messages (thread_id, organization_id, run_id, content)
          select id, organization_id, $3, $4 from thread
          returning id`,
        [message.threadId, message.organizationId, message.runId, message.content],
      );
      return rows.length > 0;
    },

    /**
     * The workflow's threads that have a message, newest first: who wrote (a member's name, else
     * "Visitor" and the start of the visitor's id), the first message and how many there are.
     */
    async listOfWorkflow(organizationId: string, workflowId: string): Promise<ChatThreadSummary[]> {
      const rows = await db
        .select({
          id: chatThreads.id,
          member: userDisplayName(chatThreads.userId),
          visitorId: chatThreads.visitorId,
          firstMessage: sql<string | null>`(select m.content from ${chatMessages} m
            where m.thread_id = ${chatThreads}.id order by m.created_at, m.id limit 1)`,
          messageCount: sql<number>`(select count(*)::int from ${chatMessages} m where m.thread_id = ${chatThreads}.id)`,
          createdAt: chatThreads.createdAt,
          lastMessageAt: chatThreads.lastMessageAt,
        })
        .from(chatThreads)
        .where(
          and(
            eq(chatThreads.organizationId, organizationId),
            eq(chatThreads.workflowId, workflowId),
            gt(chatThreads.lastMessageAt, kept),
            sql`exists (select 1 from ${chatMessages} m where m.thread_id = ${chatThreads}.id)`,
          ),
        )
        .orderBy(desc(chatThreads.lastMessageAt), desc(chatThreads.id));
      return rows.map(({ member, visitorId, firstMessage, createdAt, lastMessageAt, ...row }) => ({
        ...row,
        visitor: member ?? `Visitor ${visitorId.slice(0, VISITOR_NAME_CHARS)}`,
        firstMessage: firstMessage ?? '',
        createdAt: createdAt.toISOString(),
        lastMessageAt: lastMessageAt.toISOString(),
      }));
    },

    /** Deletes the thread and its messages (their runs stay); false when the organization's workflow has no such thread. */
    async delete(organizationId: string, workflowId: string, threadId: string): Promise<boolean> {
      const rows = await db
        .delete(chatThreads)
        .where(
          and(
            eq(chatThreads.id, threadId),
            eq(chatThreads.organizationId, organizationId),
            eq(chatThreads.workflowId, workflowId),
          ),
        )
        .returning({ id: chatThreads.id });
      return rows.length > 0;
    },

    /** Whether the user belongs to the organization (a member writes as themselves, trusted). */
    async isMember(userId: string, organizationId: string): Promise<boolean> {
      const { rows } = await db.execute<{ member: boolean }>(
        sql`select ${isMemberSql(sql`${userId}::uuid`, sql`${organizationId}::uuid`)} as member`,
      );
      return rows[0]?.member === true;
    },

    /** Deletes the threads whose last message is older than CHAT_THREAD_DAYS (their messages go with them). */
    async prune(): Promise<void> {
      await db.delete(chatThreads).where(lt(chatThreads.lastMessageAt, kept));
    },
  };
}
export type ChatThreadsRepository = ReturnType<typeof createChatThreadsRepository>;
