import type { SqlExecutor } from '@crewline/db';
import { violatesUnique } from '../../platform/unique-violation';

/*
 * What a retry writes besides its run's start (executions.repository.ts composes it): the old run's
 * completed steps, copied into the new run, and the rule that a run is retried once.
 */

/** The unique index that lets a run be retried once: a second retry's insert breaks it. */
const RETRY_OF_UNIQUE = 'workflow_executions_retry_of_unique';

/** The insert broke RETRY_OF_UNIQUE: another retry of the same run committed first. */
export const isRetryTaken = (error: unknown): boolean => violatesUnique(error, RETRY_OF_UNIQUE);

export const runRetries = {
  /**
   * Part of a retry's start transaction (`executor` is that transaction): pins the new run to the
   * retried run's version and copies the retried run's completed steps into it — all of them, or
   * those whose node is in `nodeIds` — marked reused (`metadata.reused` in the output,
   * `metrics.reused` in the step), with their outputs in the new run's output map. The runner
   * then skips them as it skips steps an earlier attempt finished. Returns how many it copied.
   */
  async reuseSteps(
    executor: SqlExecutor,
    retry: {
      executionId: string;
      fromExecutionId: string;
      workflowVersion: number | null;
      nodeIds: string[] | null;
    },
  ): Promise<number> {
    const { rows } = await executor.executeSql(
      `with copied as (
          insert into agent_executions
            (workflow_execution_id, agent_id, node_id, base_node_id, kind, delivery, status, input, output, metrics, logs, started_at, completed_at)
          select $1::uuid, agent_id, node_id, base_node_id, kind, delivery, 'completed', input,
            jsonb_set(output, '{metadata}', coalesce(output->'metadata', '{}'::jsonb)
              || jsonb_build_object('reused', true, 'reusedFrom', coalesce(output->'metadata'->>'reusedFrom', $2::text))),
            coalesce(metrics, '{}'::jsonb)
              || jsonb_build_object('reused', true, 'reusedFrom', coalesce(metrics->>'reusedFrom', $2::text)),
            logs, started_at, completed_at
          from agent_executions
          where workflow_execution_id = $2::uuid and status = 'completed' and node_id is not null
            and jsonb_typeof(output) = 'object'
            and ($3::text[] is null or base_node_id = any($3::text[]))
          order by completed_at
          returning node_id, output
        )
        update workflow_executions
        set workflow_version = $4::int,
          output = coalesce(output, '{}'::jsonb)
            || (select coalesce(jsonb_object_agg(node_id, output), '{}'::jsonb) from copied),
          logs = coalesce(logs, '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
            'at', $5::text, 'level', 'info',
            'message', format('Retry of run %s: %s completed step(s) reused', $2::text, (select count(*) from copied))))
        where id = $1::uuid
        returning (select count(*) from copied)::int as reused`,
      [
        retry.executionId,
        retry.fromExecutionId,
        retry.nodeIds,
        retry.workflowVersion,
        new Date().toISOString(),
      ],
    );
    return (rows[0] as { reused: number } | undefined)?.reused ?? 0;
  },
};
