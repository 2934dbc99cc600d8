import {
  evaluationRecordSchema,
  stepRecordSchema,
  type ExecutionStep,
  type ExecutionLog,
  type NodeOutput,
} from '@crewline/contracts';

type StoredStep = {
  status: string;
  nodeId: string;
  baseNodeId: string;
  agentId: string | null;
  logs: ExecutionLog[];
  startedAt: string | null;
  completedAt: string | null;
  record: unknown;
  output: unknown;
  metrics: unknown;
  error: string | null;
};

/** Postgres prints timestamptz in jsonb as "2026-01-01T10:00:00.123+00:00": the API's form is ISO with Z. */
const iso = (at: string | null) => (at ? new Date(at).toISOString() : new Date(0).toISOString());

/**
 * A run's steps as the details serve them, from the jsonb its read aggregates (executions.repository.ts):
 * a record that is not the contract's shape (steps stored before records were kept hold `{}`) is left out.
 */
export function stepsFrom(json: unknown): ExecutionStep[] {
  if (!Array.isArray(json)) return [];
  return (json as StoredStep[]).flatMap((row): ExecutionStep[] => {
    const parsed = stepRecordSchema.safeParse(row.record);
    const evaluation = parsed.success ? undefined : evaluationRecordSchema.safeParse(row.record).data;
    const base = {
      nodeId: row.nodeId,
      baseNodeId: row.baseNodeId,
      agentId: row.agentId,
      logs: row.logs ?? [],
      startedAt: iso(row.startedAt),
      completedAt: iso(row.completedAt),
      ...(parsed.success ? { record: parsed.data } : {}),
      ...(evaluation ? { evaluation } : {}),
    };
    if (row.status === 'failed') return [{ status: 'failed', ...base, error: row.error ?? '' }];
    if (row.status !== 'completed' || !row.output) return [];
    // Written by recordStep from the engine's output and metrics (or copied by reuseSteps).
    return [
      {
        status: 'completed',
        ...base,
        output: row.output as NodeOutput,
        metrics: row.metrics as Extract<ExecutionStep, { status: 'completed' }>['metrics'],
      },
    ];
  });
}
