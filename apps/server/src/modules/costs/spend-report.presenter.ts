import { sql, type SQL } from 'drizzle-orm';
import { modelUsage, type Db } from '@crewline/db';
import type { CostGrouping } from '@crewline/contracts';

/** A group's sums as Postgres answers them (bigint sums come back as text). */
export type SpendGroupRow = {
  key: string;
  /** The workflow's or agent's name (null: deleted, or none); other groupings are labelled by the service. */
  name: string | null;
  cost_micros: string | null;
  calls: string;
  input_tokens: string;
  cached_input_tokens: string;
  output_tokens: string;
  unpriced_calls: string;
  unpriced_models: string[] | null;
};

/** The key each grouping adds up by, and the name a workflow or agent key is shown with. */
function grouping(groupBy: CostGrouping, timeZone: string, organizationId: string): { key: SQL; name: SQL } {
  const none = sql`null::text`;
  switch (groupBy) {
    case 'day':
      return { key: sql`to_char((u.created_at at time zone ${timeZone})::date, 'YYYY-MM-DD')`, name: none };
    case 'workflow':
      return {
        key: sql`coalesce(u.workflow_id::text, '')`,
        name: sql`(select w.name from workflows w where w.id = g.key::uuid and w.organization_id = ${organizationId})`,
      };
    case 'agent':
      return {
        key: sql`coalesce(u.agent_id::text, '')`,
        name: sql`(select a.name from agents a where a.id = g.key::uuid and a.organization_id = ${organizationId})`,
      };
    case 'model':
      return { key: sql`u.provider || '/' || u.model`, name: none };
    case 'source':
      return { key: sql`u.source`, name: none };
    case 'trigger':
      return { key: sql`coalesce(u.trigger, '')`, name: none };
  }
}

/**
 * The costs report's read model: the spend ledger added up by one grouping, with the names of the
 * workflows and agents it names (their modules' tables, read here and written by them).
 */
export function createSpendReportPresenter(db: Db) {
  return {
    /**
     * The organization's spend in [from, to) by `groupBy` (days of `timeZone`), with the name of each
     * workflow or agent still there (a key that is not a uuid, the empty one, has none). Calls whose
     * model had no price are counted apart, never as 0.
     */
    async groups(
      organizationId: string,
      range: { from: Date; to: Date },
      groupBy: CostGrouping,
      timeZone: string,
    ): Promise<SpendGroupRow[]> {
      const { key, name } = grouping(groupBy, timeZone, organizationId);
      const { rows } = await db.execute<SpendGroupRow>(sql`
        select g.*, case when g.key = '' then null else ${name} end as name
        from (
          select ${key} as key,
            sum(u.cost_micros)::text as cost_micros,
            sum(u.calls)::text as calls,
            sum(u.input_tokens)::text as input_tokens,
            sum(u.cached_input_tokens)::text as cached_input_tokens,
            sum(u.output_tokens)::text as output_tokens,
            coalesce(sum(u.calls) filter (where u.cost_micros is null), 0)::text as unpriced_calls,
            array_agg(distinct u.model order by u.model) filter (where u.cost_micros is null) as unpriced_models
          from ${modelUsage} u
          where u.organization_id = ${organizationId}
            and u.created_at >= ${range.from.toISOString()}::timestamptz and u.created_at < ${range.to.toISOString()}::timestamptz
          group by 1
        ) g`);
      return rows;
    },
  };
}
export type SpendReportPresenter = ReturnType<typeof createSpendReportPresenter>;
