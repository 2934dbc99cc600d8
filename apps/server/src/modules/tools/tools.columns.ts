import { sql, type SQL } from 'drizzle-orm';
import type { ToolApprovalPolicy } from '@crewline/contracts';
import { rowFromJson, rowJson, tools } from '@crewline/db';

/*
 * SQL fragments over tools and agent_tools that other modules compose into their own statements
 * (a run's claim reads its agents' tools with it, an agent's read its tool badges): the tools module
 * owns these tables.
 */

type ToolRow = typeof tools.$inferSelect;

/** An agent's tool as a run uses it: the tool, and the agent's own settings for it. */
/** `approval`: the link's policy, read with a run's claim (the other reads of links leave it out). */
export type EnabledToolRow = ToolRow & { linkConfig: Record<string, unknown>; approval?: ToolApprovalPolicy };

/**
 * The agent's enabled, active tools of its own organization, oldest link first, as one JSON column
 * of a read of agents (`agent` is the agents row's alias): a run reads its agents and their tools in
 * one statement. `enabledToolsFromJson` decodes it.
 */
export const enabledToolsJson = (agent: string): SQL<unknown> => sql`coalesce((
  select json_agg(json_build_object('row', ${rowJson('t')}, 'linkConfig', coalesce(l.config, '{}'::jsonb),
    'approval', l.approval) order by l.created_at)
  from agent_tools l join tools t on t.id = l.tool_id
  where l.agent_id = ${sql.raw(`"${agent}"."id"`)} and l.is_enabled and t.is_active
    and t.organization_id = ${sql.raw(`"${agent}"."organization_id"`)}), '[]'::json)`;

/** An agent card's tool badge. */
export type LinkedTool = { id: string; name: string };

/**
 * The agent's connected, enabled tools (`{ id, name }`, oldest link first), as one JSON column of a
 * read of agents (`agent` is the agents row's alias): an agent's answer shows them as its tools.
 */
export const linkedToolsJson = (agent: string): SQL<LinkedTool[]> => sql`coalesce((
  select json_agg(json_build_object('id', t.id, 'name', t.name) order by l.created_at)
  from agent_tools l join tools t on t.id = l.tool_id
  where l.agent_id = ${sql.raw(`"${agent}"."id"`)} and l.is_enabled), '[]'::json)`;

export function enabledToolsFromJson(json: unknown): EnabledToolRow[] {
  return (json as { row: unknown; linkConfig: Record<string, unknown>; approval?: ToolApprovalPolicy }[]).map(
    ({ row, linkConfig, approval }) => ({
      ...rowFromJson(tools, row),
      linkConfig,
      // A claim read before links had a policy asks nothing, as those links did.
      approval: approval ?? 'never',
    }),
  );
}

/**
 * The ids (as text, as workflow nodes name them) of the tools of the organization `organization`
 * names, as a subquery for the reader to alias (`… ${toolIdsOf(org)} t`, column `id`): a workflow's
 * save and a run's start check the tools its Tool steps name with it.
 */
export const toolIdsOf = (organization: SQL): SQL =>
  sql`(select t.id::text as id from tools t where t.organization_id = ${organization})`;
