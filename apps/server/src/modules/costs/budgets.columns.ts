import { sql, type SQL } from 'drizzle-orm';
import type { CappedScope } from './spend-counters.repository';

/*
 * What the costs module offers other modules' statements over `organization_budgets` and
 * `spend_counters` (it owns both): a run's start reads whether a monthly cap is already spent with
 * its workflow, and a run's claim reads the organization's budget with the run, so budgets add no
 * statement to a run that has none.
 */

/** This month (UTC) as the counters file it. */
const thisMonth = sql.raw(`date_trunc('month', now() at time zone 'UTC')::date`);

/**
 * A column of a read of the workflow a run starts (`row` names its row): the first of the
 * organization's and the workflow's monthly caps whose counter says it is spent this month (reached,
 * or a call refused at it from 80 % on)
 * (`{ scope, spentMicros, capMicros }`), or null. The workflow's cap is its `config.budget.monthlyCapUsd`.
 */
export const spentCapJson = (row: string): SQL<unknown> => {
  const workflow = (column: string) => sql.raw(`"${row}"."${column}"`);
  return sql`(
  select json_build_object('scope', c.scope, 'spentMicros', c.spent_micros, 'capMicros', cap.micros)
  from spend_counters c, lateral (select case c.scope
      when 'organization' then (select b.monthly_cap_micros from organization_budgets b
        where b.organization_id = c.organization_id)
      else case when jsonb_typeof(${workflow('config')}->'budget'->'monthlyCapUsd') = 'number'
        then round((${workflow('config')}->'budget'->>'monthlyCapUsd')::numeric * 1000000)::bigint end
    end as micros) cap
  where c.organization_id = ${workflow('organization_id')} and c.month = ${thisMonth}
    and ((c.scope = 'organization' and c.scope_id = '') or (c.scope = 'workflow' and c.scope_id = ${workflow('id')}::text))
    and (c.spent_micros >= cap.micros or c.alerted >= 100)
  order by c.scope = 'organization' desc
  limit 1)`;
};

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
