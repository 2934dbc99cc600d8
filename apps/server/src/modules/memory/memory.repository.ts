import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import { agentMemories, agents, type Db } from '@crewline/db';
import { AGENT_MEMORY_LIMIT, AGENT_MEMORY_PAGE, type AgentMemories } from '@crewline/contracts';

/** A memory with its embedding, as a step's recall reads it. */
export type StoredMemory = { id: string; content: string; embedding: Buffer };

/** `%text%` for ILIKE, its own % and _ (and the escape) matched literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An agent's memories (modules/memory): every statement names the organization and the agent. */
export function createMemoryRepository(db: Db) {
  const ofAgent = (organizationId: string, agentId: string) =>
    and(eq(agentMemories.organizationId, organizationId), eq(agentMemories.agentId, agentId));

  return {
    /** Whether the organization has this agent (the routes answer 404 otherwise). */
    async agentExists(organizationId: string, agentId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: agents.id })
        .from(agents)
        .where(and(eq(agents.organizationId, organizationId), eq(agents.id, agentId)));
      return !!row;
    },

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
    async withEmbeddings(organizationId: string, agentId: string, model: string): Promise<StoredMemory[]> {
      return db
        .select({ id: agentMemories.id, content: agentMemories.content, embedding: agentMemories.embedding })
        .from(agentMemories)
        .where(and(ofAgent(organizationId, agentId), eq(agentMemories.embeddingModel, model)))
        .orderBy(desc(agentMemories.createdAt))
        .limit(AGENT_MEMORY_LIMIT);
    },

    /** Stores new memories, then forgets the oldest past AGENT_MEMORY_LIMIT, in one transaction. */
    async add(
      organizationId: string,
      agentId: string,
      executionId: string | null,
      model: string,
      memories: { content: string; embedding: Buffer }[],
    ): Promise<void> {
      if (memories.length === 0) return;
      const rows = memories.map((memory) => ({
        organizationId,
        agentId,
        executionId,
        embeddingModel: model,
        ...memory,
      }));
      await db.transaction(async (tx) => {
        await tx.insert(agentMemories).values(rows);
        await tx.execute(sql`
          delete from agent_memories where id in (
            select id from agent_memories where agent_id = ${agentId}
            order by created_at desc, id desc offset ${AGENT_MEMORY_LIMIT})`);
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
