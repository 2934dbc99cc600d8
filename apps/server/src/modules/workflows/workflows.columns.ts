import { sql, type SQL } from 'drizzle-orm';
import { workflowVersions } from '@crewline/db';

/*
 * SQL fragments over workflows and workflow_versions that other modules compose into their own
 * statements (a run's claim, a run's read, an agent's delete dialog, the email monitor's scan): the
 * workflows module owns these tables.
 */

/**
 * The agent ids a workflow's nodes (`nodes`, a jsonb array) name, as the set-returning FROM items
 * `… n, lateral … refs(ref)`: like the engine's nodeAgentId, a node names its agent in `agentId` or
 * in `data.agentId`, and a map or loop the agent it runs in `data.run.agentId` (all are taken; an id
 * that names no agent of the organization matches none).
 */
export const nodeAgentRefs = (nodes: SQL) =>
  sql`jsonb_array_elements(${nodes}) n, lateral (values (n->>'agentId'), (n->'data'->>'agentId'), (n->'data'->'run'->>'agentId')) refs(ref)`;

/**
 * The ids of the agents the nodes of a run's definition name (its pinned version, or the working copy
 * for a run from before versions), as a text[] expression over the run row named `run`: a run's claim
 * reads its agents with it. Like the engine's nodeAgentId, a node names its agent in `agentId` or in
 * `data.agentId` (both are taken: an extra agent read is harmless); text that is not a UUID names none.
 */
export const runAgentIds = (run: string): SQL<string[]> => {
  const column = (name: string) => sql.raw(`"${run}"."${name}"`);
  const nodes = sql`coalesce(
    (select v.nodes from workflow_versions v
      where v.workflow_id = ${column('workflow_id')} and v.version = ${column('workflow_version')}),
    (select w.nodes from workflows w where w.id = ${column('workflow_id')}))`;
  return sql`array(select distinct ref from ${nodeAgentRefs(nodes)}
    where ref ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')`;
};

const uuidPattern = sql.raw(`'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`);

/**
 * The newest version of the workflow row named `workflow` recorded at or before the statement's
 * placeholder `at` (a run's creation): what a map or loop of that run runs of it (null: none yet).
 */
export const versionAt = (workflow: string): SQL<number | null> =>
  sql`(select max(v.version) from workflow_versions v
    where v.workflow_id = ${sql.raw(`"${workflow}"."id"`)} and v.version > 0
      and v.created_at <= ${sql.placeholder('at')}::timestamptz)`;

/**
 * The ids of the agents the nodes of that version (`versionAt`) name, as a text[] expression: a
 * sub-workflow's read takes its agents with it (`agentsJson` over the workflow row, which has the
 * organization).
 */
export const versionAtAgentIds = (workflow: string): SQL<string[]> => {
  const nodes = sql`(select v.nodes from workflow_versions v
    where v.workflow_id = ${sql.raw(`"${workflow}"."id"`)} and v.version = ${versionAt(workflow)})`;
  return sql`array(select distinct ref from ${nodeAgentRefs(nodes)} where ref ~* ${uuidPattern})`;
};

/**
 * The workflows of the organization of the agent row named `agent` whose working copy or newest version
 * (the one an active workflow runs) has a step on that agent, as one JSON column
 * (`[{ id, name, status }]`, by name) of a read of the agent row: its delete dialog lists them.
 */
export const workflowsUsingAgent = (agent: string): SQL<{ id: string; name: string; status: string }[]> => {
  const id = sql.raw(`"${agent}"."id"::text`);
  return sql`coalesce((select json_agg(json_build_object('id', w.id, 'name', w.name, 'status', w.status)
      order by w.name, w.id)
    from workflows w
    where w.organization_id = ${sql.raw(`"${agent}"."organization_id"`)}
      and (${id} in (select ref from ${nodeAgentRefs(sql`w.nodes`)})
        or ${id} in (select ref from workflow_versions v, ${nodeAgentRefs(sql`v.nodes`)}
          where v.workflow_id = w.id and v.version = (select max(v2.version) from workflow_versions v2
            where v2.workflow_id = w.id and v2.version > 0)))), '[]'::json)`;
};

/**
 * The newest version of the workflow `workflowId` names, as a scalar subquery: a run's start pins
 * itself to it in its own insert, so a save committing meanwhile cannot split them.
 */
export const newestVersionOf = (
  workflowId: SQL,
): SQL<number> => sql`(select max(${workflowVersions.version}) from ${workflowVersions}
            where ${workflowVersions.workflowId} = ${workflowId} and ${workflowVersions.version} > 0)`;

/**
 * The name and process type of a run's workflow, as columns of a read of the run row named `run`
 * (its workflow_id): the run list and a run's details show them.
 */
export const runWorkflowColumns = (run: string) => {
  const ofWorkflow = (column: string) =>
    sql.raw(`(select w.${column} from workflows w where w.id = "${run}"."workflow_id")`);
  return {
    workflowName: sql<string | null>`${ofWorkflow('name')}`,
    processType: sql<string | null>`${ofWorkflow('process_type')}`,
  };
};

/** The active email workflows of the organization `organization` (SQL text) names, aliased `w`. */
const activeEmailWorkflows = (organization: string) => `workflows w
  where w.organization_id = ${organization} and w.status = 'active' and w.trigger_type = 'email'`;

/**
 * Whether the organization `organization` (SQL text) names has an active email workflow: the email
 * monitor scans only such organizations' inboxes (`dueInboxesSql` of microsoft.columns.ts).
 */
export const hasActiveEmailWorkflow = (organization: string) =>
  `exists (select 1 from ${activeEmailWorkflows(organization)})`;

/** The active email workflows of organization $1 (`id`, `trigger_config`), oldest first: the email monitor's. */
export const ACTIVE_EMAIL_WORKFLOWS_SQL = `select w.id, w.trigger_config from ${activeEmailWorkflows('$1')}
  order by w.created_at asc`;
