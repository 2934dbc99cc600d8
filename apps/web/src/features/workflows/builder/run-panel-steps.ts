// The builder's run panel lists the steps of the run shown: what the run's read holds (finished and
// failed steps, in run order) and, from the live events, the steps still running with their streamed
// answers (the run's state, lib/runs). Steps that call no model (a condition, a transform, a merge) show
// one line for what they did where an agent's answer goes; skipped nodes are not steps (the canvas
// greys them) and are left out.
import type { EvaluationRecord, Execution, NodeKind, StepRecord } from '@crewline/contracts';

import type { RunStep } from '@/lib/runs/run-state';

import { stepKind } from '@/features/runs/execution-facts';
import { inRunOrder } from '@/features/runs/run-review';
import { noModelSummary, stepEvaluations, stepRecords } from '@/features/runs/step-records';

type PanelStepStatus = 'running' | 'completed' | 'failed';

export interface PanelStep {
  stepId: string;
  agentName: string;
  status: PanelStepStatus;
  /** The stored answer of a finished step; what was streamed so far of a running one. */
  text: string;
  /** True while the text is the streamed one (the stored answer is not read yet). */
  streaming: boolean;
  executionTime?: number;
  totalTokens?: number;
  /** What a stored step's model call cost (USD); null when its model had no price, absent without one. */
  costUsd?: number | null;
  /** The models its calls had no price for (its cost is then null). */
  unpricedModels?: string[];
  error?: string;
  record?: StepRecord;
  /** The node kind of a stored step (agent for one stored before kinds were kept); unknown for the others. */
  kind?: NodeKind;
  /** What a step that calls no model evaluated, and the step's structured value (Inspect step). */
  evaluation?: EvaluationRecord;
  data?: unknown;
  /** A step that waits (an approval, a delay): no answer streams meanwhile. */
  waiting?: true;
}

/** `nameOf` names a step heard from mid-way (its started event, which names it, was not heard). */
export function panelSteps(
  execution: Pick<Execution, 'output' | 'logs' | 'steps'> | undefined,
  live: readonly RunStep[],
  nameOf: (baseNodeId: string) => string = (id) => id,
): PanelStep[] {
  const steps: PanelStep[] = [];
  const seen = new Set<string>();
  if (execution) {
    const records = stepRecords(execution.steps);
    const evaluations = stepEvaluations(execution.steps);
    const finished = Object.entries(execution.output).map(([nodeId, output]) => ({ nodeId, output }));
    for (const { nodeId, output } of inRunOrder(finished, execution)) {
      seen.add(nodeId);
      if (output.status === 'skipped') continue;
      const kind = stepKind(output);
      const agent = kind === 'agent';
      steps.push({
        stepId: nodeId,
        agentName: agent
          ? output.metadata.agentName || 'Agent'
          : nameOf(output.metadata.baseNodeId ?? nodeId),
        status: 'completed',
        text: agent ? output.content : noModelSummary(output, evaluations[nodeId]),
        streaming: false,
        executionTime: output.executionTime,
        totalTokens: output.usage.totalTokens,
        ...(output.usage.costUsd !== undefined ? { costUsd: output.usage.costUsd } : {}),
        ...(output.usage.unpricedModels ? { unpricedModels: output.usage.unpricedModels } : {}),
        record: records[nodeId],
        kind,
        ...(evaluations[nodeId] ? { evaluation: evaluations[nodeId] } : {}),
        ...(output.data !== undefined ? { data: output.data } : {}),
      });
    }
    for (const step of execution.steps ?? []) {
      if (step.status !== 'failed' || seen.has(step.nodeId)) continue;
      seen.add(step.nodeId);
      steps.push({
        stepId: step.nodeId,
        agentName: step.record?.agentName ?? nameOf(step.baseNodeId),
        status: 'failed',
        text: '',
        streaming: false,
        error: step.error,
        record: step.record ?? undefined,
      });
    }
  }
  for (const step of live) {
    if (seen.has(step.stepId)) continue;
    steps.push({
      stepId: step.stepId,
      agentName: step.agentName ?? nameOf(step.baseNodeId),
      status: step.status,
      text: step.text,
      streaming: step.status !== 'failed' && !step.waiting,
      executionTime: step.executionTime,
      totalTokens: step.totalTokens,
      error: step.error,
      ...(step.waiting ? { waiting: true as const } : {}),
    });
  }
  return steps;
}
