import type { NodeOutput } from '@crewline/contracts';
import type { ExecutionsRepository } from './executions.repository';
import { sendsOutput, type OutputDelivery } from './output-delivery';
import type { RunLog } from './run-log';

/**
 * Where an attempt's stored steps go besides the run's record (output-delivery.ts): only a stored
 * step is sent, with the content stored, then marked sent. A failure fails the run and leaves the step
 * unsent: resuming or retrying the run sends it (with the same idempotency key).
 */
export function createStepDelivery(deps: {
  delivery?: OutputDelivery;
  repository: Pick<ExecutionsRepository, 'markDelivered'>;
  ids: { organizationId: string; executionId: string; workflowId: string };
  attempt: number;
  workflowName: string;
  /** The run's nodes' data by node id: a node's output destination is in it. */
  nodeData: Map<string, Record<string, unknown>>;
  signal: AbortSignal;
  runLog: RunLog;
}) {
  const { delivery, ids, nodeData } = deps;

  /** Whether the step of this node sends its output somewhere. */
  const sends = (baseNodeId: string) => !!delivery && sendsOutput(nodeData.get(baseNodeId) ?? {});

  /** Sends a stored step's output where its node says, then marks it sent. */
  async function deliver(nodeId: string, baseNodeId: string, output: NodeOutput) {
    if (!delivery) return;
    const data = nodeData.get(baseNodeId) ?? {};
    const agentName = output.metadata.agentName ?? (typeof data.label === 'string' ? data.label : 'Step');
    const delivered = await delivery.deliver(
      {
        ...ids,
        workflowName: deps.workflowName,
        nodeId,
        agentName,
        data,
        producedBy: output.metadata.reusedFrom,
      },
      output.content,
      { signal: deps.signal },
    );
    await deps.repository.markDelivered(ids.executionId, deps.attempt, nodeId);
    // Its log line is stored with the next step or when the run ends.
    if (delivered) deps.runLog.add('info', `${agentName}: ${delivered}`, nodeId);
  }

  return {
    sends,
    deliver,
    /**
     * Outputs an earlier attempt (or the retried run) stored but did not send, in the order they
     * finished; `beforeEach` stops the attempt when it was interrupted.
     */
    async pending(
      completed: {
        outputs: Record<string, NodeOutput>;
        undelivered: { nodeId: string; baseNodeId: string }[];
      },
      beforeEach: () => void,
    ) {
      for (const step of completed.undelivered) {
        beforeEach();
        await deliver(step.nodeId, step.baseNodeId, completed.outputs[step.nodeId]);
      }
    },
  };
}
export type StepDelivery = ReturnType<typeof createStepDelivery>;
