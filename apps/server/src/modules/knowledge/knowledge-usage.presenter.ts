import { and, eq, sql } from 'drizzle-orm';
import { knowledgeBases, type Db } from '@crewline/db';
import type { Usage } from '@crewline/contracts';

/**
 * What searches a knowledge base, for its delete dialog: a presenter, reading the knowledge base with
 * the tools set to it and the agents linked to them (the tools and agents modules' tables; agents
 * imports knowledge, so no SQL of its can come here) in one statement, and writing nothing
 * (docs/architecture.md, Modules).
 */
export function createKnowledgeUsagePresenter(db: Db) {
  return {
    /**
     * The organization's vector-store tools set to the knowledge base, and the agents linked to a
     * vector-store tool that searches it for them (a link's own knowledgeBaseId wins over its tool's,
     * as in the tool runtime); undefined when the organization has no such knowledge base.
     */
    async usage(organizationId: string, id: string): Promise<Usage | undefined> {
      const base = sql.raw(`"knowledge_bases"."id"::text`);
      const organization = sql.raw(`"knowledge_bases"."organization_id"`);
      const [row] = await db
        .select({
          tools: sql<Usage['agents']>`coalesce((
            select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name, t.id)
            from tools t
            where t.organization_id = ${organization} and t.category = 'vector_store'
              and t.config->>'knowledgeBaseId' = ${base}), '[]'::json)`,
          agents: sql<Usage['agents']>`coalesce((
            select json_agg(json_build_object('id', a.id, 'name', a.name) order by a.name, a.id)
            from agents a
            where a.organization_id = ${organization} and exists (
              select 1 from agent_tools l join tools t on t.id = l.tool_id
              where l.agent_id = a.id and t.category = 'vector_store'
                and coalesce(nullif(l.config->>'knowledgeBaseId', ''), t.config->>'knowledgeBaseId') = ${base})),
            '[]'::json)`,
        })
        .from(knowledgeBases)
        .where(and(eq(knowledgeBases.organizationId, organizationId), eq(knowledgeBases.id, id)))
        .limit(1);
      return row && { workflows: [], agents: row.agents, tools: row.tools };
    },
  };
}
export type KnowledgeUsagePresenter = ReturnType<typeof createKnowledgeUsagePresenter>;
