import { sql, type SQL } from 'drizzle-orm';
import { modelUsage, spendCounters, type Db } from '@crewline/db';

/**
 * A capped scope of an organization's spend: its monthly cap, a workflow's, a workflow's chat app's
 * (its runs with trigger `chat`), or the plan's included spend on the server's keys.
 */
export type CappedScope = {
  scope: 'organization' | 'workflow' | 'chat' | 'plan';
  /** The workflow's id for a workflow's or its chat app's cap, else ''. */
  scopeId: string;
  capMicros: number;
};

/** A scope's counter after a settlement: what it spent, and the alert level it reached now for the first time (0: none). */
export type Settled = {
  scope: CappedScope['scope'];
  scopeId: string;
  spentMicros: number;
  capMicros: number;
  newAlert: 0 | 80 | 100;
};

/** The month of `month` (its first day, YYYY-MM-DD) as the counters file it. */
const monthKey = (month: Date) => month.toISOString().slice(0, 10);

/** The ledger's spend of a scope in the month: the counter's starting point when it is first used. */
const ledgerSum = (organizationId: string, scope: CappedScope, month: Date) => {
  const start = month.toISOString();
  const only =
    scope.scope === 'workflow'
      ? sql`and workflow_id = ${scope.scopeId}::uuid`
      : scope.scope === 'chat'
        ? sql`and workflow_id = ${scope.scopeId}::uuid and trigger = 'chat'`
        : scope.scope === 'plan'
          ? sql`and server_key`
          : sql``;
  return sql`(select coalesce(sum(cost_micros), 0) from ${modelUsage}
    where organization_id = ${organizationId} and created_at >= ${start}::timestamptz
      and created_at < ${start}::timestamptz + interval '1 month' ${only})`;
};

const scopeValues = (scopes: CappedScope[]) =>
  sql.join(
    scopes.map((s) => sql`(${s.scope}::text, ${s.scopeId}::text, ${s.capMicros}::bigint)`),
    sql`, `,
  );

/**
 * The monthly spend of capped scopes, kept exact under concurrent calls (docs/product-rules.md,
 * Costs): a call reserves its worst case in every scope it counts against with one conditional
 * update, so calls running at once can never together pass a cap by more than the calls already in
 * flight when it was reached; it settles its real cost after. A scope's counter starts, the first
 * time it is used in a month, at what the ledger holds for it.
 */
export function createSpendCountersRepository(db: Db) {
  /** Creates the month's missing counters of `scopes`, each at the ledger's spend so far. */
  async function start(organizationId: string, scopes: CappedScope[], month: Date) {
    const rows = scopes.map(
      (scope) => sql`(${organizationId}::uuid, ${scope.scope}, ${scope.scopeId}, ${monthKey(month)}::date,
        ${ledgerSum(organizationId, scope, month)})`,
    );
    await db.execute(sql`insert into ${spendCounters} (organization_id, scope, scope_id, month, spent_micros)
      values ${sql.join(rows, sql`, `)} on conflict do nothing`);
  }

  /** Adds `micros` to the reservations of `scopes` where each stays within its cap (all of them when `force`); the scopes reserved. */
  async function tryReserve(
    organizationId: string,
    scopes: CappedScope[],
    month: Date,
    micros: number,
    force: boolean,
  ) {
    const { rows } = await db.execute<{ scope: CappedScope['scope']; scope_id: string }>(sql`
      update ${spendCounters} c set reserved_micros = c.reserved_micros + ${micros}::bigint
      from (values ${scopeValues(scopes)}) as v(scope, scope_id, cap)
      where c.organization_id = ${organizationId} and c.month = ${monthKey(month)}::date
        and c.scope = v.scope and c.scope_id = v.scope_id
        and (${force}::boolean or c.spent_micros + c.reserved_micros + ${micros}::bigint <= v.cap)
      returning c.scope, c.scope_id`);
    return rows;
  }

  return {
    /**
     * Reserves `micros` in every scope, or in none: when a scope's cap would be passed (and not
     * `force`, which the later calls of a step use so that it finishes), the reservations made are
     * taken back and the first scope refused is answered with its spend.
     */
    async reserve(
      organizationId: string,
      scopes: CappedScope[],
      month: Date,
      micros: number,
      force = false,
    ): Promise<{ refused?: CappedScope & { spentMicros: number } }> {
      if (scopes.length === 0) return {};
      let reserved = await tryReserve(organizationId, scopes, month, micros, force);
      if (reserved.length < scopes.length) {
        // Missing counters (the scope's first call this month) are started, then asked again.
        await start(organizationId, scopes, month);
        await this.release(
          organizationId,
          scopes.filter((s) => isIn(reserved, s)),
          month,
          micros,
        );
        reserved = await tryReserve(organizationId, scopes, month, micros, force);
      }
      if (reserved.length === scopes.length) return {};
      await this.release(
        organizationId,
        scopes.filter((s) => isIn(reserved, s)),
        month,
        micros,
      );
      const refused = scopes.find((s) => !isIn(reserved, s))!;
      return { refused: { ...refused, spentMicros: await this.spent(organizationId, refused, month) } };
    },

    /** Takes a reservation back without spending (the call failed before it was made). */
    async release(organizationId: string, scopes: CappedScope[], month: Date, micros: number) {
      if (scopes.length === 0) return;
      await db.execute(sql`
        update ${spendCounters} c set reserved_micros = greatest(0, c.reserved_micros - ${micros}::bigint)
        from (values ${scopeValues(scopes)}) as v(scope, scope_id, cap)
        where c.organization_id = ${organizationId} and c.month = ${monthKey(month)}::date
          and c.scope = v.scope and c.scope_id = v.scope_id`);
    },

    /**
     * Turns a reservation of `reservedMicros` into the call's real cost `spentMicros`, and raises each
     * counter's alert level to what its spend now reaches (80 % or 100 % of its cap): a level reached
     * for the first time this month is answered, so its alert goes out once, whichever call reached it.
     */
    async settle(
      organizationId: string,
      scopes: CappedScope[],
      month: Date,
      reservedMicros: number,
      spentMicros: number,
    ): Promise<Settled[]> {
      if (scopes.length === 0) return [];
      const level = sql`case when c.spent_micros + ${spentMicros}::bigint >= v.cap then 100
        when (c.spent_micros + ${spentMicros}::bigint) * 5 >= v.cap * 4 then 80 else 0 end`;
      const { rows } = await db.execute<{
        scope: CappedScope['scope'];
        scope_id: string;
        spent_micros: string;
        cap: string;
        new_alert: number;
      }>(sql`
        with old as (
          select c.scope, c.scope_id, c.alerted from ${spendCounters} c
          where c.organization_id = ${organizationId} and c.month = ${monthKey(month)}::date
          for update
        )
        update ${spendCounters} c
        set reserved_micros = greatest(0, c.reserved_micros - ${reservedMicros}::bigint),
          spent_micros = c.spent_micros + ${spentMicros}::bigint,
          alerted = greatest(c.alerted, ${level})
        from (values ${scopeValues(scopes)}) as v(scope, scope_id, cap), old
        where c.organization_id = ${organizationId} and c.month = ${monthKey(month)}::date
          and c.scope = v.scope and c.scope_id = v.scope_id
          and old.scope = c.scope and old.scope_id = c.scope_id
        returning c.scope, c.scope_id, c.spent_micros::text, v.cap::text,
          case when c.alerted > old.alerted then c.alerted else 0 end as new_alert`);
      return rows.map((row) => ({
        scope: row.scope,
        scopeId: row.scope_id,
        spentMicros: Number(row.spent_micros),
        capMicros: Number(row.cap),
        newAlert: row.new_alert as Settled['newAlert'],
      }));
    },

    /** What a scope's counter says it spent this month (0 before its first call). */
    async spent(organizationId: string, scope: Pick<CappedScope, 'scope' | 'scopeId'>, month: Date) {
      const { rows } = await db.execute<{ spent: string }>(sql`
        select spent_micros::text as spent from ${spendCounters}
        where organization_id = ${organizationId} and scope = ${scope.scope} and scope_id = ${scope.scopeId}
          and month = ${monthKey(month)}::date`);
      return Number(rows[0]?.spent ?? 0);
    },

    /**
     * A call was refused at the scope's cap: the scope is spent for the month (new runs are refused
     * too) and its 100 % alert goes out, once. Answered when this refusal is the first.
     */
    async exhausted(organizationId: string, scope: CappedScope, month: Date): Promise<Settled | undefined> {
      const { rows } = await db.execute<{ spent_micros: string }>(sql`
        update ${spendCounters} set alerted = 100
        where organization_id = ${organizationId} and scope = ${scope.scope} and scope_id = ${scope.scopeId}
          and month = ${monthKey(month)}::date and alerted < 100
        returning spent_micros::text`);
      return rows[0] ? { ...scope, spentMicros: Number(rows[0].spent_micros), newAlert: 100 } : undefined;
    },

    /** What a scope's counter says this month: its spend, and whether it is spent (reached, or a call refused). */
    async state(organizationId: string, scope: Pick<CappedScope, 'scope' | 'scopeId'>, month: Date) {
      const { rows } = await db.execute<{ spent: string; alerted: number }>(sql`
        select spent_micros::text as spent, alerted from ${spendCounters}
        where organization_id = ${organizationId} and scope = ${scope.scope} and scope_id = ${scope.scopeId}
          and month = ${monthKey(month)}::date`);
      return { spentMicros: Number(rows[0]?.spent ?? 0), exhausted: (rows[0]?.alerted ?? 0) >= 100 };
    },

    /**
     * Restarts a scope's counter at the ledger's spend when its cap is set or changed: the month so
     * far counts, its alert level falls to what the new cap makes it (so alerts not reached yet can go
     * out again), and a level the month's spend already reaches is answered, to alert at once.
     */
    async restart(organizationId: string, scope: CappedScope, month: Date): Promise<Settled | undefined> {
      const level = (spent: SQL) => sql`case when ${spent} >= ${scope.capMicros}::bigint then 100
        when ${spent} * 5 >= ${scope.capMicros}::bigint * 4 then 80 else 0 end`;
      const { rows } = await db.execute<{ spent_micros: string; was: number; alerted: number }>(sql`
        with old as (
          select alerted from ${spendCounters}
          where organization_id = ${organizationId} and scope = ${scope.scope} and scope_id = ${scope.scopeId}
            and month = ${monthKey(month)}::date
        ), fresh as (
          select greatest(${ledgerSum(organizationId, scope, month)}, coalesce((select spent_micros from ${spendCounters}
            where organization_id = ${organizationId} and scope = ${scope.scope} and scope_id = ${scope.scopeId}
              and month = ${monthKey(month)}::date), 0)) as spent
        )
        insert into ${spendCounters} as c (organization_id, scope, scope_id, month, spent_micros, alerted)
        select ${organizationId}::uuid, ${scope.scope}, ${scope.scopeId}, ${monthKey(month)}::date, fresh.spent,
          ${level(sql`fresh.spent`)}
        from fresh
        on conflict (organization_id, scope, scope_id, month) do update
        set spent_micros = excluded.spent_micros, alerted = excluded.alerted
        returning c.spent_micros::text, coalesce((select alerted from old), 0) as was, c.alerted`);
      const row = rows[0];
      // Reached now and not before (under the old cap or with no counter yet): alerted once.
      const reached = row.alerted > 0 && row.alerted > row.was ? row.alerted : 0;
      return reached > 0
        ? { ...scope, spentMicros: Number(row.spent_micros), newAlert: reached as 80 | 100 }
        : undefined;
    },
  };
}
export type SpendCountersRepository = ReturnType<typeof createSpendCountersRepository>;

const isIn = (rows: { scope: string; scope_id: string }[], scope: CappedScope) =>
  rows.some((row) => row.scope === scope.scope && row.scope_id === scope.scopeId);
