import type { NodeOutput, RunTarget } from '@crewline/contracts';
import { workflowMessages as m } from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { checkTemplate, renderTemplate, type ExpressionContext, type ExpressionScope } from '../expressions';
import { asText } from '../prompt';
import { askAgent } from './ask-agent';
import { evaluatingIn } from './no-model';
import type { NodeValidationContext, StepExecutor, StepTask } from './types';

type Ports = Parameters<StepExecutor['execute']>[1];

/** The errors of what a map or a loop runs: an agent of the organization with a prompt that checks, or a workflow. */
export function runTargetErrors(
  where: { kind: string; name: string },
  target: RunTarget | undefined,
  scope: ExpressionScope,
  {
    agentExists,
    workflowExists,
    workflowId,
  }: Pick<NodeValidationContext, 'agentExists' | 'workflowExists' | 'workflowId'>,
): string[] {
  if (!target) return [m.noRunTarget(where.kind, where.name)];
  if ('workflowId' in target) {
    // Only the direct loop is seen at save; a loop through other workflows fails its run (the server's port).
    if (workflowId !== undefined && target.workflowId === workflowId)
      return [m.ownRunWorkflow(where.kind, where.name)];
    if (workflowExists && !workflowExists(target.workflowId))
      return [m.deletedRunWorkflow(where.kind, where.name)];
    return [];
  }
  if (!agentExists(target.agentId)) return [m.deletedRunAgent(where.kind, where.name)];
  const reason = checkTemplate(target.prompt, { ...scope, iteration: true });
  return reason ? [m.badExpression(where.name, target.prompt, reason)] : [];
}

/**
 * Runs one item of a map or one pass of a loop as the child step `stepId`: the agent asked the
 * prompt template (over `item`, `index`, `last`), or the workflow given the item as its input.
 */
export function runTarget(
  task: StepTask,
  ports: Ports,
  run: { target: RunTarget; stepId: string; scope: ExpressionContext; where: string },
): Promise<NodeOutput> {
  const { target, stepId, scope, where } = run;
  if ('workflowId' in target) {
    const runWorkflow = ports.runWorkflow;
    if (!runWorkflow) throw new WorkflowRunError(`${where}: this run cannot start another workflow`);
    return task.run.child(task.step, stepId, { agentId: null, kind: task.node.type }, async (step) => {
      const answer = await runWorkflow({ step, workflowId: target.workflowId, input: scope.item ?? {} });
      return {
        content: answer.content,
        ...(answer.data !== undefined ? { data: answer.data } : {}),
        metadata: { baseNodeId: step.baseNodeId },
        usage: answer.usage,
      };
    });
  }
  const agent = task.run.agentById(target.agentId);
  if (!agent) throw new WorkflowRunError(`${where} uses an agent that no longer exists`);
  return task.run.child(task.step, stepId, { agentId: agent.id, kind: 'agent' }, async (step) => {
    const user = asText(evaluatingIn(where, () => renderTemplate(target.prompt, scope)));
    return askAgent(ports, { step, agent, user, outputSchema: agent.outputSchema ?? undefined });
  });
}
