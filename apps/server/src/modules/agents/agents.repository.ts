import { desc, eq } from 'drizzle-orm';
import { agents, type Db } from '@crewline/db';
import type { Agent } from '@crewline/contracts';

type AgentRow = typeof agents.$inferSelect;

export function toAgentDto(row: AgentRow): Agent {
  return {
    ...row,
    tools: row.tools ?? [],
    templateTags: row.templateTags ?? [],
    config: row.config ?? {},
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createAgentsRepository(db: Db) {
  return {
    async list(organizationId: string): Promise<Agent[]> {
      const rows = await db
        .select()
        .from(agents)
        .where(eq(agents.organizationId, organizationId))
        .orderBy(desc(agents.createdAt));
      return rows.map(toAgentDto);
    },
  };
}
export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
