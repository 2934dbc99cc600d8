import { executionMessages, type Execution, type RetryExecutionData } from '@crewline/contracts';
import { upstreamSteps } from '@crewline/engine';
import { BadRequestError, ConflictError } from '../../platform/errors';
import type { WorkflowsService } from '../workflows/workflows.service';
import { isRetryTaken, type ExecutionsRepository } from './executions.repository';
import type { createRunStarter } from './run-start.service';

/*
 * Retry (executions.service.ts composes it): which runs may be retried, which of their steps are
 * reused, and the run started again through startRun's path.
 */

/** The steps a retry may start from: an agent answers again, an approval asks again. */
const RETRY_FROM_KINDS: readonly string[] = ['agent', 'approval'];

/**
 * A completed run's approval step that said no (rejected, or timed out): the run went down its
 * rejected or timeout path, or ended there, and can be retried from that step to ask again.
 */
function saidNo(old: Execution, nodeId: string | undefined): boolean {
  const step = nodeId === undefined ? undefined : old.output[nodeId];
  if (step?.kind !== 'approval' || step.status !== 'completed') return false;
  const decision = (step.data as { decision?: unknown } | null | undefined)?.decision;
  return decision === 'rejected' || decision === 'timeout';
}

export function createRunRetry(deps: {
  repository: ExecutionsRepository;
  workflows: WorkflowsService;
  /** The run as its organization reads it (a 404 for another's). */
  get: (organizationId: string, id: string) => Promise<Execution>;
  startRun: ReturnType<typeof createRunStarter>;
}) {
  const { repository, get, startRun } = deps;

  /**
   * A failed or cancelled run again, started like any run (startRun's path), on the version the
   * retried run executed, with its input, reusing its completed steps (see retryExecutionSchema).
   * A completed run is retried only from an approval step that said no: the new run reuses the
   * steps before it and waits on a new approval.
   */
  async function retry(
    organizationId: string,
    userId: string | null,
    id: string,
    request: RetryExecutionData,
  ): Promise<Execution> {
    const old = await get(organizationId, id);
    const ended = old.status === 'failed' || old.status === 'cancelled';
    if (!ended && !(old.status === 'completed' && saidNo(old, request.fromNodeId)))
      throw new ConflictError(executionMessages.notRetryable(old.status));
    // A run is retried once (docs/product-rules.md): a failed retry is retried in turn.
    if (old.retriedBy) throw new ConflictError(executionMessages.alreadyRetried(old.retriedBy));
    let nodeIds: string[] | null = null;
    if (request.fromNodeId !== undefined) {
      const definition =
        old.workflowVersion === null
          ? await deps.workflows.get(organizationId, old.workflowId)
          : await deps.workflows.version(organizationId, old.workflowId, old.workflowVersion);
      const fromNodeId = request.fromNodeId;
      if (!definition.nodes.some((node) => node.id === fromNodeId && RETRY_FROM_KINDS.includes(node.type)))
        throw new BadRequestError(executionMessages.unknownRetryNode(fromNodeId));
      if (definition.processType !== 'sequential')
        throw new BadRequestError(executionMessages.retryFromNotSequential(definition.processType));
      // The steps with a path into it ran before it; a step the run never reaches from its start
      // node has none: nothing is reused. The step itself is not reused: an approval asks again.
      nodeIds = upstreamSteps(fromNodeId, definition.nodes, definition.edges);
    }
    const retrying = startRun(
      {
        organizationId,
        workflowId: old.workflowId,
        trigger: 'manual',
        triggeredBy: userId,
        input: old.input,
        dynamicInstructions: old.dynamicInstructions,
        parameters: old.parameters,
        // A retry runs the same outside input: it stays as (un)trusted as the run it retries.
        untrusted: old.untrusted,
      },
      (executionId, executor) =>
        repository.reuseSteps(executor, {
          executionId,
          fromExecutionId: old.id,
          workflowVersion: old.workflowVersion,
          nodeIds,
        }),
      old.id,
    );
    try {
      return await retrying;
    } catch (error) {
      // Another retry of the same run committed between the read above and this insert.
      if (!isRetryTaken(error)) throw error;
      const { retriedBy } = await get(organizationId, id);
      throw new ConflictError(executionMessages.alreadyRetried(retriedBy ?? ''));
    }
  }

  return retry;
}
