import { sql, type SQL } from 'drizzle-orm';
import type { CappedScope } from './spend-counters.repository';

/*
 * What the costs module offers other modules' statements over `organization_budgets` and
 * `spend_counters` (it owns both): a run's start reads whether a monthly cap is already spent with
 * its workflow, and a run's claim reads the organization's budget (and a chat run its app's cap) with
 * the run, so budgets add no statement to a run that has none.
 */

/** This month (UTC) as the counters file it. */
const thisMonth = sql.raw(`date_trunc('month', now() at time zone 'UTC')::date`);

/**
 * A chat app's monthly cap as an SQL expression over its workflow's id (modules/mcp's
 * `chatCapMicrosSql`, handed over by app.ts: the module graph keeps costs from importing mcp).
 */
export type ChatCapMicrosSql = (workflowId: SQL) => SQL<unknown>;

/**
 * A column of a read of the workflow a run starts (`row` names its row): the first of the
 * organization's, the workflow's and, with `chatCapMicros`, its chat app's monthly caps whose counter
 * says it is spent this month (reached, or a call refused at it from 80 % on and the cap not raised
 * past that since) (`{ scope, spentMicros, capMicros }`), or null. The workflow's cap is its
 * `config.budget.monthlyCapUsd`; a cap removed since refuses nothing. The chat app's comes last: it
 * refuses only runs with trigger `chat` (spend.service.ts), so a cap that refuses every run is
 * answered first. A scope without a cap has no counter, so an app without one reads nothing more.
 */
export const spentCapJson = (row: string, chatCapMicros?: ChatCapMicrosSql): SQL<unknown> => {
  const workflow = (column: string) => sql.raw(`"${row}"."${column}"`);
  const workflowCap = sql`case when jsonb_typeof(${workflow('config')}->'budget'->'monthlyCapUsd') = 'number'
        then round((${workflow('config')}->'budget'->>'monthlyCapUsd')::numeric * 1000000)::bigint end`;
  const chat = chatCapMicros
    ? {
        cap: sql`when 'chat' then ${chatCapMicros(workflow('id'))}`,
        counter: sql`or (c.scope = 'chat' and c.scope_id = ${workflow('id')}::text)`,
      }
    : { cap: sql``, counter: sql`` };
  return sql`(
  select json_build_object('scope', c.scope, 'spentMicros', c.spent_micros, 'capMicros', cap.micros)
  from spend_counters c, lateral (select case c.scope
      when 'organization' then (select b.monthly_cap_micros from organization_budgets b
        where b.organization_id = c.organization_id)
      when 'workflow' then ${workflowCap}
      ${chat.cap}
    end as micros) cap
  where c.organization_id = ${workflow('organization_id')} and c.month = ${thisMonth}
    and ((c.scope = 'organization' and c.scope_id = '') or (c.scope = 'workflow' and c.scope_id = ${workflow('id')}::text)
      ${chat.counter})
    and (c.spent_micros >= cap.micros or (c.alerted >= 100 and c.spent_micros * 5 >= cap.micros * 4))
  order by case c.scope when 'organization' then 0 when 'workflow' then 1 else 2 end
  limit 1)`;
};

/**
 * A column of a run's claim (`row` names the run's row): its workflow's chat app's monthly cap in
 * micro-dollars when the run has trigger `chat` and the app a cap, else null (other runs read nothing).
 */
export const runChatCapSql = (row: string, chatCapMicros: ChatCapMicrosSql): SQL<unknown> =>
  sql`(case when ${sql.raw(`"${row}"."trigger"`)} = 'chat'
    then ${chatCapMicros(sql.raw(`"${row}"."workflow_id"`))} end)`;

/** `runChatCapSql`'s value: the cap in micro-dollars, undefined without one. */
export const chatCapFromColumn = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

/** `spentCapJson`'s value: the cap already spent, if any. */
export function spentCapFromJson(
  json: unknown,
): { scope: CappedScope['scope']; spentMicros: number; capMicros: number } | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const { scope, spentMicros, capMicros } = json as Record<string, unknown>;
  return {
    scope: scope as CappedScope['scope'],
    spentMicros: Number(spentMicros),
    capMicros: Number(capMicros),
  };
}

/** The organization's budget as a run's claim reads it (`row` names the run's row), null without one. */
export const organizationBudgetJson = (row: string): SQL<unknown> => sql`(
  select json_build_object('monthlyCapMicros', b.monthly_cap_micros, 'includedSpendMicros', b.included_spend_micros)
  from organization_budgets b where b.organization_id = ${sql.raw(`"${row}"."organization_id"`)})`;

/** `organizationBudgetJson`'s value. */
export function organizationBudgetFromJson(json: unknown): {
  monthlyCapMicros: number | null;
  includedSpendMicros: number | null;
} {
  const value = (json ?? {}) as { monthlyCapMicros?: unknown; includedSpendMicros?: unknown };
  const micros = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    monthlyCapMicros: micros(value.monthlyCapMicros),
    includedSpendMicros: micros(value.includedSpendMicros),
  };
}
