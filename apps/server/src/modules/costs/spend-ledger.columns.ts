import { sql } from 'drizzle-orm';
import { modelUsage } from '@crewline/db';

/*
 * What the costs module offers other modules' statements over `model_usage` (it owns the ledger): a
 * run's step is kept in the ledger by the statement that stores the step
 * (modules/executions/step-records.repository.ts), so metering adds no statement to a run.
 */

/**
 * Inserts an agent step's spend, as a data-modifying CTE of the statement that stores the step: it
 * reads the run's organization, workflow and trigger from that statement's `owner` CTE (the run's
 * row, returned only while the attempt owns it), so a superseded attempt writes no spend either.
 */
export const stepSpendSql = (agentId: string | null, spend: StepSpend) => sql`
  insert into ${modelUsage} (organization_id, source, workflow_id, execution_id, agent_id, trigger, provider, model,
    server_key, calls, input_tokens, cached_input_tokens, output_tokens, cost_micros)
  select owner.organization_id, 'run', owner.workflow_id, owner.id, ${agentId}::uuid, owner.trigger,
    ${spend.provider}, ${spend.model}, ${spend.serverKey}, ${spend.calls}, ${spend.inputTokens},
    ${spend.cachedInputTokens}, ${spend.outputTokens}, ${spend.costMicros}::bigint
  from owner`;

/**
 * What an agent step's model calls used and cost, for the spend ledger.
 */
export type StepSpend = {
  provider: string;
  model: string;
  /** Paid through the server's own key. */
  serverKey: boolean;
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** Null when the model had no price. */
  costMicros: number | null;
};
