import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { agents, rowFromJson, rowJson, type Db } from '@crewline/db';
import {
  agentMemorySettingsSchema,
  MEMORY_OFF,
  type Agent,
  type CreateAgentInput,
  type UpdateAgentInput,
  type Usage,
} from '@crewline/contracts';
import { nothingToSet } from '../../platform/patch';
import { linkedToolsJson, type LinkedTool } from '../tools/tools.columns';
import { workflowsUsingAgent } from '../workflows/workflows.columns';

type AgentRow = typeof agents.$inferSelect;

// The card's tool badges: the agent's connected, enabled tools, after any names stored on the agent.
const linkedTools = linkedToolsJson('agents');

/**
 * The agents of the organization of the row named `owner` (its organization_id) whose ids are in
 * `ids` (a text[] expression), as one JSON column of a read of that row, each with `perAgent` columns
 * (SQL over the agent row, given its alias): a run's claim reads its agents with it.
 * `agentsFromJson` decodes it.
 */
export const agentsJson = (
  owner: string,
  ids: SQL,
  perAgent: Record<string, (agent: string) => SQL>,
): SQL<unknown> => {
  const extra = Object.entries(perAgent).flatMap(([name, column]) => [sql`${name}::text`, column('a')]);
  return sql`coalesce((
    select json_agg(json_build_object('row', ${rowJson('a')}, 'linked', ${linkedToolsJson('a')}
      ${extra.length > 0 ? sql`, ${sql.join(extra, sql`, `)}` : sql``}))
    from agents a
    where a.organization_id = ${sql.raw(`"${owner}"."organization_id"`)} and a.id::text = any(${ids})), '[]'::json)`;
};

export function agentsFromJson(json: unknown): ({ agent: Agent } & Record<string, unknown>)[] {
  return (json as { row: unknown; linked: LinkedTool[] }[]).map(({ row, linked, ...columns }) => ({
    ...columns,
    agent: toAgentDto(rowFromJson(agents, row), linked),
  }));
}

function mergeTools(stored: unknown[], linked: LinkedTool[]): unknown[] {
  const names = new Set(stored.map((t) => (typeof t === 'string' ? t : (t as { name?: string })?.name)));
  return [...stored, ...linked.filter((t) => !names.has(t.name))];
}

function toAgentDto({ templateSource: _source, ...row }: AgentRow, linked: LinkedTool[] = []): Agent {
  return {
    ...row,
    tools: mergeTools(row.tools ?? [], linked),
    templateTags: row.templateTags ?? [],
    config: row.config ?? {},
    // Never set up (null) is off; the column only ever holds what the contract accepted.
    memory: agentMemorySettingsSchema.safeParse(row.memory).data ?? MEMORY_OFF,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// Every query is scoped by the organization id: another organization's agent simply does not exist.
export function createAgentsRepository(db: Db) {
  const scoped = (organizationId: string, id: string) =>
    and(eq(agents.organizationId, organizationId), eq(agents.id, id));
  async function get(organizationId: string, id: string): Promise<Agent | undefined> {
    const [row] = await db
      .select({ agent: agents, linked: linkedTools })
      .from(agents)
      .where(scoped(organizationId, id))
      .limit(1);
    return row && toAgentDto(row.agent, row.linked);
  }
  return {
    /** The organization's agents, newest first; only those with the given ids when `ids` is passed. */
    async list(organizationId: string, ids?: string[]): Promise<Agent[]> {
      if (ids?.length === 0) return [];
      const rows = await db
        .select({ agent: agents, linked: linkedTools })
        .from(agents)
        .where(and(eq(agents.organizationId, organizationId), ids && inArray(agents.id, ids)))
        .orderBy(desc(agents.createdAt));
      return rows.map((r) => toAgentDto(r.agent, r.linked));
    },
    get,
    /**
     * Inserts the agent in one transaction with `check` (the plan's limit), which runs first on that
     * transaction and may throw to refuse: what it locks stays locked until the agent is committed.
     * Given `within` (a caller's transaction, e.g. a template copy), it is a savepoint of that one.
     */
    async create(
      organizationId: string,
      createdBy: string,
      input: CreateAgentInput,
      templateSource: string | undefined,
      check: (tx: Pick<Db, 'select'>) => Promise<void>,
      within: Pick<Db, 'transaction'> = db,
    ): Promise<Agent> {
      return within.transaction(async (tx) => {
        await check(tx);
        const [row] = await tx
          .insert(agents)
          .values({
            ...(input as typeof agents.$inferInsert),
            organizationId,
            createdBy,
            updatedBy: createdBy,
            templateSource: templateSource ?? null,
          })
          .returning();
        return toAgentDto(row);
      });
    },
    async update(
      organizationId: string,
      id: string,
      patch: UpdateAgentInput,
      updatedBy: string | null,
    ): Promise<Agent | undefined> {
      if (nothingToSet(patch)) return get(organizationId, id);
      const [row] = await db
        .update(agents)
        .set({ ...(patch as Partial<typeof agents.$inferInsert>), updatedBy })
        .where(scoped(organizationId, id))
        .returning();
      return row && toAgentDto(row);
    },
    /**
     * The workflows that use the agent (workflowsUsingAgent), in one statement with the agent's own
     * row; undefined when the organization has no such agent.
     */
    async usage(organizationId: string, id: string): Promise<Usage | undefined> {
      const [row] = await db
        .select({ workflows: workflowsUsingAgent('agents') })
        .from(agents)
        .where(scoped(organizationId, id))
        .limit(1);
      return row && { workflows: row.workflows as Usage['workflows'], agents: [] };
    },
    /** Whether the organization has this agent. */
    async exists(organizationId: string, id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: agents.id })
        .from(agents)
        .where(scoped(organizationId, id))
        .limit(1);
      return Boolean(row);
    },
    /**
     * The organization's agents made from these template agents (`<template id>:<key>`), by source:
     * the oldest of each. On `q`, a template copy's transaction, which makes the missing ones.
     */
    async fromTemplateSources(
      organizationId: string,
      sources: string[],
      q: Pick<Db, 'select'> = db,
    ): Promise<Map<string, string>> {
      if (sources.length === 0) return new Map();
      const rows = await q
        .select({ id: agents.id, source: agents.templateSource })
        .from(agents)
        .where(and(eq(agents.organizationId, organizationId), inArray(agents.templateSource, sources)))
        .orderBy(asc(agents.createdAt));
      const found = new Map<string, string>();
      for (const row of rows) if (row.source && !found.has(row.source)) found.set(row.source, row.id);
      return found;
    },
    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db.delete(agents).where(scoped(organizationId, id)).returning({ id: agents.id });
      return rows.length > 0;
    },
  };
}
export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
