import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import { agentMemories, lockForTransaction, type Db, type Tx } from '@crewline/db';
import { AGENT_MEMORY_LIMIT, AGENT_MEMORY_PAGE, type AgentMemories } from '@crewline/contracts';

/** A memory with its embedding, as a step's recall reads it. */
export type StoredMemory = { id: string; content: string; embedding: Buffer };

/** `%text%` for ILIKE, its own % and _ (and the escape) matched literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const ofAgent = (organizationId: string, agentId: string) =>
  and(eq(agentMemories.organizationId, organizationId), eq(agentMemories.agentId, agentId));

/** The agent's memories embedded by `model`, newest first, with their embeddings. */
function embedded(db: Tx, organizationId: string, agentId: string, model: string): Promise<StoredMemory[]> {
  return db
    .select({ id: agentMemories.id, content: agentMemories.content, embedding: agentMemories.embedding })
    .from(agentMemories)
    .where(and(ofAgent(organizationId, agentId), eq(agentMemories.embeddingModel, model)))
    .orderBy(desc(agentMemories.createdAt))
    .limit(AGENT_MEMORY_LIMIT);
}

/** An agent's memories (modules/memory): every statement names the organization and the agent. */
export function createMemoryRepository(db: Db) {
  return {
    /** The newest memories whose text contains `search` (all without it), and how many match. */
    async list(organizationId: string, agentId: string, search?: string): Promise<AgentMemories> {
      const where = and(
        ofAgent(organizationId, agentId),
        search ? ilike(agentMemories.content, containing(search)) : undefined,
      );
      const [rows, [{ total }]] = await Promise.all([
        db
          .select({
            id: agentMemories.id,
            agentId: agentMemories.agentId,
            content: agentMemories.content,
            executionId: agentMemories.executionId,
            createdAt: agentMemories.createdAt,
          })
          .from(agentMemories)
          .where(where)
          .orderBy(desc(agentMemories.createdAt), desc(agentMemories.id))
          .limit(AGENT_MEMORY_PAGE),
        db.select({ total: count() }).from(agentMemories).where(where),
      ]);
      return {
        memories: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
        total,
      };
    },

    /** Every memory of the agent embedded by `model` (others cannot be compared with its queries). */
    withEmbeddings: (organizationId: string, agentId: string, model: string) =>
      embedded(db, organizationId, agentId, model),

    /**
     * Stores the new memories `choose` picks given the agent's kept ones, then forgets the oldest past
     * AGENT_MEMORY_LIMIT. One transaction holding the agent's lock: two steps of the agent finishing
     * at once (a parallel run) decide in turn, so the second sees what the first kept. Answers what
     * was stored.
     */
    async addNew<T extends { content: string; embedding: Buffer }>(
      organizationId: string,
      agentId: string,
      executionId: string | null,
      model: string,
      choose: (kept: StoredMemory[]) => T[],
    ): Promise<T[]> {
      return db.transaction(async (tx) => {
        await lockForTransaction(tx, `agent_memories|${agentId}`);
        const chosen = choose(await embedded(tx, organizationId, agentId, model));
        if (chosen.length === 0) return chosen;
        await tx.insert(agentMemories).values(
          chosen.map(({ content, embedding }) => ({
            organizationId,
            agentId,
            executionId,
            embeddingModel: model,
            content,
            embedding,
          })),
        );
        await tx.execute(sql`
          delete from agent_memories where id in (
            select id from agent_memories where agent_id = ${agentId}
            order by created_at desc, id desc offset ${AGENT_MEMORY_LIMIT})`);
        return chosen;
      });
    },

    async remove(organizationId: string, agentId: string, memoryId: string): Promise<boolean> {
      const removed = await db
        .delete(agentMemories)
        .where(and(ofAgent(organizationId, agentId), eq(agentMemories.id, memoryId)))
        .returning({ id: agentMemories.id });
      return removed.length > 0;
    },

    async clear(organizationId: string, agentId: string): Promise<void> {
      await db.delete(agentMemories).where(ofAgent(organizationId, agentId));
    },
  };
}
export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
