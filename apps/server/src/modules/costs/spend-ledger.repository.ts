import { sql } from 'drizzle-orm';
import { modelUsage, type Db } from '@crewline/db';
import type { SpendSource } from '@crewline/contracts';
import type { StepSpend } from './spend-ledger.columns';

/** One metered model use outside a run's steps (those are written with the step: spend-ledger.columns.ts). */
export type SpendEntry = StepSpend & {
  organizationId: string;
  source: SpendSource;
  workflowId?: string | null;
  executionId?: string | null;
  agentId?: string | null;
};

/** The spend ledger (`model_usage`): every statement names the organization. */
export function createSpendLedgerRepository(db: Db) {
  return {
    /** Keeps one model use outside a run's steps. */
    async record(entry: SpendEntry): Promise<void> {
      await db.insert(modelUsage).values({
        organizationId: entry.organizationId,
        source: entry.source,
        workflowId: entry.workflowId ?? null,
        executionId: entry.executionId ?? null,
        agentId: entry.agentId ?? null,
        provider: entry.provider,
        model: entry.model,
        serverKey: entry.serverKey,
        calls: entry.calls,
        inputTokens: entry.inputTokens,
        cachedInputTokens: entry.cachedInputTokens,
        outputTokens: entry.outputTokens,
        costMicros: entry.costMicros,
      });
    },

    /**
     * What the organization spent in the calendar month (UTC) that starts at `month`: in all, and on
     * the server's keys, in micro-dollars (calls without a price count as nothing here).
     */
    async monthSpend(organizationId: string, month: Date): Promise<{ total: number; serverKey: number }> {
      const { rows } = await db.execute<{ total: string; server_key: string }>(sql`
        select coalesce(sum(cost_micros), 0)::text as total,
          coalesce(sum(cost_micros) filter (where server_key), 0)::text as server_key
        from ${modelUsage}
        where organization_id = ${organizationId} and created_at >= ${month.toISOString()}::timestamptz
          and created_at < ${month.toISOString()}::timestamptz + interval '1 month'`);
      return { total: Number(rows[0].total), serverKey: Number(rows[0].server_key) };
    },
  };
}
export type SpendLedgerRepository = ReturnType<typeof createSpendLedgerRepository>;
