import {
  approvalPathValues,
  nodeKinds,
  workflowMessages as m,
  type ApprovalField,
  type EvaluatedExpression,
} from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { checkTemplate, renderTemplate } from '../expressions';
import type { ApprovalOutcome } from '../run-workflow';
import { nodeName } from '../step-name';
import { noUsage } from '../usage';
import { evaluatingIn } from './no-model';
import type { EngineNodeKind, StepResult } from './types';

const approvalData = (data: Record<string, unknown> | undefined) =>
  nodeKinds.approval.data.safeParse(data ?? {}).data ?? nodeKinds.approval.data.parse({});

/** The decision an approval step's data holds, which names the path it takes. */
const decisionOf = (data: unknown) =>
  typeof data === 'object' && data !== null ? (data as { decision?: unknown }).decision : undefined;

const fieldTypes: Record<ApprovalField['type'], Record<string, unknown>> = {
  text: { type: 'string' },
  number: { type: 'number' },
  choice: { type: 'string' },
  boolean: { type: 'boolean' },
};

/**
 * An approval step's result, the same whether the run's attempt took it (a timeout) or the decision
 * stored it (the server's decision, through the same function): its data is the outcome, and its
 * text says what was decided, by whom.
 */
export function approvalStepResult(outcome: ApprovalOutcome, names: Record<string, string> = {}): StepResult {
  const by = outcome.decisions
    .filter((d) => (outcome.decision === 'approved' ? d.decision === 'approve' : d.decision === 'reject'))
    .map((d) => names[d.userId] ?? d.userName ?? d.userId);
  const content =
    outcome.decision === 'timeout'
      ? 'Timed out'
      : `${outcome.decision === 'approved' ? 'Approved' : 'Rejected'}${by.length ? ` by ${by.join(', ')}` : outcome.decisions.length === 0 ? ' (timed out)' : ''}`;
  return { content, data: outcome, metadata: {}, usage: noUsage };
}

/**
 * Waits for people to decide (docs/product-rules.md, People in the loop): the title and message are
 * rendered with the run's values, then the run waits through the wait port until the decision (or
 * the timeout) and takes the path it names: `approved`, `rejected` or `timeout`.
 */
export const approvalKind: EngineNodeKind<'approval'> = {
  kind: 'approval',
  validate(nodes, { outgoing, scopeOf }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const name = nodeName(node);
      const data = approvalData(node.data);
      if (!data.title.trim()) errors.push(m.approvalTitle(name));
      const scope = scopeOf(node.id);
      for (const template of [data.title, data.message]) {
        const reason = checkTemplate(template, scope);
        if (reason) errors.push(m.badExpression(name, template, reason));
      }
      const named = data.assignees?.userIds?.length ?? 0;
      const roles = data.assignees?.roles?.length ?? 0;
      if (data.policy === 'all' && named === 0) errors.push(m.approvalAllNeedsMembers(name));
      if (typeof data.policy === 'object' && roles === 0 && named > 0 && named < data.policy.quorum)
        errors.push(m.approvalQuorum(name, data.policy.quorum));
      const seen = new Set<string>();
      for (const field of data.fields ?? []) {
        if (seen.has(field.name)) errors.push(m.approvalField(name, field.name, 'appears twice'));
        seen.add(field.name);
        if (field.type === 'choice' && !field.options?.length)
          errors.push(m.approvalField(name, field.name, 'is a choice without options'));
      }
      const handles = outgoing(node.id).map((e) => e.sourceHandle ?? null);
      if (handles.some((h) => h === null || !(approvalPathValues as readonly string[]).includes(h)))
        errors.push(m.approvalPath(name));
      if (handles.includes('timeout') && data.timeout?.onTimeout !== 'branch')
        errors.push(m.approvalTimeoutPath(name));
      if (!handles.includes('timeout') && data.timeout?.onTimeout === 'branch')
        errors.push(m.approvalTimeoutPathMissing(name));
    }
    return errors;
  },
  executor: {
    async execute({ step, node, expressions }, ports) {
      const name = nodeName(node);
      if (!ports.waits) throw new WorkflowRunError(m.cannotWaitHere(nodeKinds.approval.label, name));
      const data = approvalData(node.data);
      const where = `Approval "${name}"`;
      const text = (template: string) => {
        const value = evaluatingIn(where, () => renderTemplate(template, expressions));
        return typeof value === 'string' ? value : JSON.stringify(value ?? null);
      };
      const outcome = await ports.waits.approval(step, {
        title: text(data.title) || name,
        message: text(data.message),
        assignees: data.assignees ?? {},
        policy: data.policy,
        fields: data.fields ?? [],
        ...(data.timeout ? { timeout: data.timeout } : {}),
      });
      const evaluated: EvaluatedExpression[] = [
        { name: 'decision', expression: '', value: outcome.decision },
      ];
      return { ...approvalStepResult(outcome), evaluation: { kind: 'approval', evaluated, result: outcome } };
    },
  },
  takes: (output, handle) => handle !== null && handle !== undefined && decisionOf(output.data) === handle,
  // What came before the approval is what the steps after it work on.
  relays: () => 'incoming',
  outputSchema(node) {
    const fields = approvalData(node.data).fields ?? [];
    return {
      type: 'object',
      properties: {
        decision: { type: 'string', enum: [...approvalPathValues] },
        decisions: { type: 'array' },
        fields: {
          type: 'object',
          properties: Object.fromEntries(fields.map((f) => [f.name, fieldTypes[f.type]])),
        },
      },
    };
  },
};
