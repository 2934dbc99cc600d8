import { describe, expect, it } from 'vitest';
import { RunWaiting } from '../errors';
import type {
  ApprovalOutcome,
  ApprovalRequest,
  EngineEvent,
  RunDefinition,
  RunPorts,
  StepRef,
} from '../run-workflow';
import { runWorkflow } from '../run-workflow';
import { validateWorkflow, type WorkflowDraft } from '../validation';
import { approvalKind } from './approval';
import { validationContext } from './kind-fixtures';

const alice = '11111111-1111-4111-8111-111111111111';
const bob = '22222222-2222-4222-8222-222222222222';

type Node = WorkflowDraft['nodes'][number];
type Edge = { source: string; target: string; sourceHandle?: string | null };
const approval = (data: Record<string, unknown>, id = 'approve'): Node => ({
  id,
  type: 'approval',
  data: { label: 'Refund check', title: 'Refund?', ...data },
});
/** The approval's own errors, with `edges` leaving it. */
const errorsOf = (data: Record<string, unknown>, edges: Edge[] = []) =>
  approvalKind.validate([approval(data)], validationContext({ outgoing: () => edges }));
const path = (sourceHandle: string | null): Edge => ({ source: 'approve', target: 'next', sourceHandle });

describe('validating an approval', () => {
  it('accepts a titled approval with its approved and rejected paths', () => {
    expect(errorsOf({}, [path('approved'), path('rejected')])).toEqual([]);
  });

  it('needs a title', () => {
    expect(errorsOf({ title: '  ' })).toEqual(['Approval "Refund check" needs a title']);
  });

  it('"All must approve" needs named members; roles alone do not say who "all" is', () => {
    expect(errorsOf({ policy: 'all', assignees: { roles: ['admin'] } })).toEqual([
      'Approval "Refund check": "All must approve" needs named members to approve',
    ]);
    expect(errorsOf({ policy: 'all', assignees: { userIds: [alice, bob] } })).toEqual([]);
  });

  it('refuses a quorum larger than the named members, unless roles may decide too', () => {
    expect(errorsOf({ policy: { quorum: 3 }, assignees: { userIds: [alice, bob] } })).toEqual([
      'Approval "Refund check": a quorum of 3 needs at least 3 named members, or roles',
    ]);
    expect(errorsOf({ policy: { quorum: 2 }, assignees: { userIds: [alice, bob] } })).toEqual([]);
    expect(
      errorsOf({ policy: { quorum: 3 }, assignees: { userIds: [alice, bob], roles: ['member'] } }),
    ).toEqual([]);
  });

  it('takes only the approved, rejected and timeout paths, each from a handle', () => {
    const message =
      'Approval "Refund check" has a path that is not approved, rejected or timeout: connect each path from one of its outcomes';
    expect(errorsOf({}, [path('approved'), path('else')])).toEqual([message]);
    expect(errorsOf({}, [path(null)])).toEqual([message]);
  });

  it('refuses a timeout path without a timeout that takes it', () => {
    const message =
      'Approval "Refund check" has a timeout path but no timeout that takes it: set a timeout with "Take the timeout path"';
    expect(errorsOf({}, [path('approved'), path('timeout')])).toEqual([message]);
    expect(
      errorsOf({ timeout: { seconds: 60, onTimeout: 'reject' } }, [path('approved'), path('timeout')]),
    ).toEqual([message]);
    expect(
      errorsOf({ timeout: { seconds: 60, onTimeout: 'branch' } }, [path('approved'), path('timeout')]),
    ).toEqual([]);
  });

  it('refuses "take the timeout path" without a timeout path to take', () => {
    expect(errorsOf({ timeout: { seconds: 60, onTimeout: 'branch' } }, [path('approved')])).toEqual([
      'Approval "Refund check" takes the timeout path on timeout but has none: connect a timeout path or choose Reject',
    ]);
    expect(errorsOf({ timeout: { seconds: 60, onTimeout: 'reject' } }, [path('approved')])).toEqual([]);
  });

  it('refuses a form field named twice and a choice without options', () => {
    const fields = [
      { name: 'amount', label: 'Amount', type: 'number' },
      { name: 'amount', label: 'Amount again', type: 'text' },
      { name: 'reason', label: 'Reason', type: 'choice' },
      { name: 'size', label: 'Size', type: 'choice', options: ['S', 'M'] },
    ];
    expect(errorsOf({ fields })).toEqual([
      'Approval "Refund check": form field "amount" appears twice',
      'Approval "Refund check": form field "reason" is a choice without options',
    ]);
  });

  it('checks the title’s and message’s templates against what is upstream', () => {
    const [error] = errorsOf({ message: 'Refund {{ nodes.missing.content }}?' });
    expect(error).toMatch(/^Node "Refund check": Refund \{\{ nodes\.missing\.content \}\}\? — .*missing/);
  });
});

/** Start → draft (an agent) → approve → approved: ship | rejected: drop | timeout: late → end. */
function refundDraft(expression: string): WorkflowDraft {
  return {
    name: 'Refunds',
    triggerType: 'manual',
    triggerConfig: {},
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'draft', type: 'agent', agentId: 'a1', data: { label: 'Draft' } },
      approval({
        fields: [{ name: 'amount', label: 'Amount', type: 'number', required: true }],
        timeout: { seconds: 60, onTimeout: 'branch' },
      }),
      { id: 'ship', type: 'agent', agentId: 'a1', data: { label: 'Ship' } },
      {
        id: 'route',
        type: 'condition',
        data: { label: 'Route', branches: [{ id: 'big', label: 'Big', when: expression }] },
      },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { source: 'start', target: 'draft' },
      { source: 'draft', target: 'approve' },
      { source: 'approve', target: 'route', sourceHandle: 'approved' },
      { source: 'approve', target: 'end', sourceHandle: 'rejected' },
      { source: 'approve', target: 'end', sourceHandle: 'timeout' },
      { source: 'route', target: 'ship', sourceHandle: 'big' },
      { source: 'route', target: 'end', sourceHandle: 'else' },
      { source: 'ship', target: 'end' },
    ],
  };
}

describe('what later steps read of an approval', () => {
  it('accepts its decision and its form’s fields, and refuses a typo in a field at save', () => {
    const exists = (id: string) => id === 'a1';
    expect(
      validateWorkflow(
        refundDraft('nodes.approve.data.decision == "approved" && nodes.approve.data.fields.amount > 100.0'),
        exists,
      ).errors,
    ).toEqual([]);
    const [error, ...rest] = validateWorkflow(
      refundDraft('nodes.approve.data.fields.amout > 100.0'),
      exists,
    ).errors;
    expect(rest).toEqual([]);
    expect(error).toMatch(/^Node "Route": nodes\.approve\.data\.fields\.amout > 100\.0 — .*amout/);
  });
});

const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
const writer = {
  id: 'a1',
  name: 'Writer',
  role: 'Writer',
  goal: 'Write',
  llmProvider: 'openai',
  llmModel: 'gpt-4o',
};

/** Start → draft → approve → approved: ship | rejected: drop | timeout: chase → end. */
const refunds: RunDefinition = {
  processType: 'sequential',
  agents: { a1: writer },
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'draft', type: 'agent', agentId: 'a1', data: { label: 'Draft' } },
    {
      id: 'approve',
      type: 'approval',
      data: {
        label: 'Refund check',
        title: 'Refund for {{ input.customer }}?',
        message: 'The draft: {{ nodes.draft.content }}',
        assignees: { roles: ['admin'] },
        fields: [{ name: 'amount', label: 'Amount', type: 'number' }],
        timeout: { seconds: 3600, onTimeout: 'branch' },
      },
    },
    { id: 'ship', type: 'agent', agentId: 'a1', data: { label: 'Ship' } },
    { id: 'drop', type: 'agent', agentId: 'a1', data: { label: 'Drop' } },
    { id: 'chase', type: 'agent', agentId: 'a1', data: { label: 'Chase' } },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { source: 'start', target: 'draft' },
    { source: 'draft', target: 'approve' },
    { source: 'approve', target: 'ship', sourceHandle: 'approved' },
    { source: 'approve', target: 'drop', sourceHandle: 'rejected' },
    { source: 'approve', target: 'chase', sourceHandle: 'timeout' },
    { source: 'ship', target: 'end' },
    { source: 'drop', target: 'end' },
    { source: 'chase', target: 'end' },
  ],
};

/** Ports whose approval port answers `outcome` (or throws what `outcome` gives). */
function ports(approve: (step: StepRef, request: ApprovalRequest) => Promise<ApprovalOutcome>) {
  const asked: string[] = [];
  const requests: ApprovalRequest[] = [];
  const events: EngineEvent[] = [];
  let clock = 0;
  const runPorts: RunPorts = {
    now: () => (clock += 5),
    async callAgent(call) {
      asked.push(call.nodeId);
      return { content: `${call.nodeId} says ${call.nodeId === 'draft' ? 'refund 120' : 'done'}`, usage };
    },
    waits: {
      delay: () => Promise.reject(new Error('no delay in this workflow')),
      approval: (step, request) => {
        requests.push(request);
        return approve(step, request);
      },
    },
    onEvent: (e) => {
      events.push(e);
    },
  };
  return { ports: runPorts, asked, requests, events };
}
const decided = (decision: ApprovalOutcome['decision']): ApprovalOutcome => ({
  decision,
  decisions:
    decision === 'timeout'
      ? []
      : [
          {
            userId: alice,
            userName: 'Alice',
            decision: decision === 'approved' ? 'approve' : 'reject',
            comment: null,
            fields: { amount: 120 },
            at: '2026-12-01T10:00:00.000Z',
            via: 'inbox',
          },
        ],
  fields: decision === 'approved' ? { amount: 120 } : {},
});

describe('an approval in a run', () => {
  it('asks with its title and message rendered, and goes down the approved path with the decision as its data', async () => {
    const m = ports(async () => decided('approved'));
    const run = await runWorkflow(refunds, { input: { customer: 'ACME' } }, m.ports);

    expect(m.requests).toEqual([
      {
        title: 'Refund for ACME?',
        message: 'The draft: draft says refund 120',
        assignees: { roles: ['admin'] },
        policy: 'first',
        fields: [{ name: 'amount', label: 'Amount', type: 'number' }],
        timeout: { seconds: 3600, onTimeout: 'branch' },
      },
    ]);
    expect(m.asked).toEqual(['draft', 'ship']);
    expect(run.output.approve).toMatchObject({
      kind: 'approval',
      status: 'completed',
      content: 'Approved by Alice',
      data: { decision: 'approved', fields: { amount: 120 } },
    });
    for (const skipped of ['drop', 'chase']) expect(run.output[skipped]).toMatchObject({ status: 'skipped' });
    // What came before the approval is what the step after it works on.
    const completed = m.events.find((e) => e.type === 'node_completed' && e.nodeId === 'approve');
    expect(completed).toMatchObject({
      evaluation: { kind: 'approval', evaluated: [{ name: 'decision', value: 'approved' }] },
    });
    expect(run.result).toBe('ship says done');
  });

  it('goes down the rejected path on a rejection, and the timeout path on a timeout', async () => {
    const rejected = ports(async () => decided('rejected'));
    const run = await runWorkflow(refunds, { input: { customer: 'ACME' } }, rejected.ports);
    expect(rejected.asked).toEqual(['draft', 'drop']);
    expect(run.output.approve).toMatchObject({
      content: 'Rejected by Alice',
      data: { decision: 'rejected' },
    });

    const late = ports(async () => decided('timeout'));
    const timedOut = await runWorkflow(refunds, { input: { customer: 'ACME' } }, late.ports);
    expect(late.asked).toEqual(['draft', 'chase']);
    expect(timedOut.output.approve).toMatchObject({ content: 'Timed out', data: { decision: 'timeout' } });
  });

  it('stops the run when its wait is stored: node_waiting is reported, never node_failed, and nothing after it runs', async () => {
    const m = ports(async (step) => {
      throw new RunWaiting(step.nodeId);
    });
    const waiting = runWorkflow(refunds, { input: { customer: 'ACME' } }, m.ports);
    await expect(waiting).rejects.toBeInstanceOf(RunWaiting);
    await expect(waiting).rejects.toMatchObject({ stepId: 'approve' });

    expect(m.asked).toEqual(['draft']);
    expect(m.events.map((e) => `${e.type} ${e.nodeId}`)).toEqual([
      'node_started draft',
      'node_completed draft',
      'node_started approve',
      'node_waiting approve',
    ]);
  });

  it('a later attempt reuses the finished steps and asks the port again', async () => {
    const first = ports(async (step) => {
      throw new RunWaiting(step.nodeId);
    });
    await expect(runWorkflow(refunds, { input: { customer: 'ACME' } }, first.ports)).rejects.toThrow(
      RunWaiting,
    );
    const draft = first.events.find((e) => e.type === 'node_completed' && e.nodeId === 'draft');
    const again = ports(async () => decided('approved'));
    await runWorkflow(
      refunds,
      { input: { customer: 'ACME' } },
      { ...again.ports, completed: { draft: draft && 'output' in draft ? draft.output : ({} as never) } },
    );
    expect(again.asked).toEqual(['ship']);
    expect(again.requests).toHaveLength(1);
  });

  it('fails where runs cannot wait (no wait ports)', async () => {
    const m = ports(async () => decided('approved'));
    const { waits: _, ...noWaits } = m.ports;
    await expect(runWorkflow(refunds, { input: { customer: 'ACME' } }, noWaits)).rejects.toThrow(
      'Approval "Refund check" cannot wait here: a workflow run by a map or a loop, or a test of a node, cannot wait',
    );
    expect(m.events.filter((e) => e.type === 'node_failed').map((e) => e.nodeId)).toEqual(['approve']);
  });
});
