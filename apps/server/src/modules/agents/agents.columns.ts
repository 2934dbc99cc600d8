import { sql, type SQL } from 'drizzle-orm';

/*
 * SQL over agents that other modules compose into their own statements: the agents module owns the
 * table. The workflows module may not import agents (an agent's delete dialog reads workflows), so the
 * composition root (app.ts) hands it this fragment.
 */

/**
 * The ids (as text, as workflow nodes name them) of the agents of the organization `organization`
 * names, with their output schemas, as a subquery for the reader to alias (`… ${agentIdsOf(org)} a`,
 * columns `id`, `output_schema`): a workflow's read checks the agents its steps name with it, and a
 * save the expressions over their data.
 */
export const agentIdsOf = (organization: SQL): SQL =>
  sql`(select a.id::text as id, a.output_schema from agents a where a.organization_id = ${organization})`;
