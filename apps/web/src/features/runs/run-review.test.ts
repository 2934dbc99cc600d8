import type { ExecutionLog, NodeOutput, WorkflowEdge, WorkflowNode } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  canRetry,
  canRetryFromApproval,
  canRetryFromStep,
  inRunOrder,
  resultEntries,
  retryFailedToast,
  retryLinks,
  retryStartedToast,
  reusedFromLabel,
  reusedSteps,
  runErrorText,
  branchLabel,
  runBranches,
  runEdgeMarks,
  runItemProgress,
  runNodeStatuses,
  versionLabel,
} from './run-review';

const step = (agentName: string, extra: Partial<NodeOutput['metadata']> = {}): NodeOutput => ({
  content: `${agentName} says hi`,
  metadata: { agentName, role: 'Agent', model: 'gpt-4o', ...extra },
  executionTime: 5,
  usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
});

// Start → n1 → n2 → n3 → End, placed out of order so the graph's order is not the array's.
const nodes: WorkflowNode[] = [
  { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
  { id: 'n3', type: 'agent', position: { x: 600, y: 0 }, data: {} },
  { id: 'n1', type: 'agent', position: { x: 200, y: 0 }, data: {} },
  { id: 'n2', type: 'agent', position: { x: 400, y: 0 }, data: {} },
  { id: 'end', type: 'end', position: { x: 800, y: 0 }, data: {} },
];
const edges: WorkflowEdge[] = [
  { id: 'e0', source: 'start', target: 'n1' },
  { id: 'e1', source: 'n1', target: 'n2' },
  { id: 'e2', source: 'n2', target: 'n3' },
  { id: 'e3', source: 'n3', target: 'end' },
];
const definition = { nodes, edges };

describe('versionLabel', () => {
  it('shows the version a run executed, Draft for an evaluation of the draft, nothing for older runs', () => {
    expect(versionLabel(7)).toBe('v7');
    expect(versionLabel(-2)).toBe('Draft');
    expect(versionLabel(null)).toBeNull();
  });
});

describe('resultEntries', () => {
  it('gives a sequential run one result', () => {
    expect(resultEntries('Final text', {})).toEqual([{ key: 'result', agentName: null, text: 'Final text' }]);
  });

  it('gives a parallel run one result per agent, named from its step', () => {
    const output = { n1: step('Researcher'), n2: step('Writer') };
    expect(resultEntries({ n1: 'Notes', n2: 'Draft', n3: '  ' }, output)).toEqual([
      { key: 'n1', agentName: 'Researcher', text: 'Notes' },
      { key: 'n2', agentName: 'Writer', text: 'Draft' },
    ]);
  });

  it('has nothing to show without a result', () => {
    expect(resultEntries(null, {})).toEqual([]);
    expect(resultEntries('', {})).toEqual([]);
  });
});

describe('reusedSteps', () => {
  it('lists only the steps a retry reused, with the run they came from', () => {
    const output = {
      n1: step('Researcher', { reused: true, reusedFrom: '1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809' }),
      n2: step('Writer'),
    };
    const reused = reusedSteps(output);
    expect(Object.keys(reused)).toEqual(['n1']);
    expect(reusedFromLabel(reused.n1!)).toBe('Reused from run 1a2b3c4d');
    expect(reusedFromLabel({ from: null })).toBe('Reused from an earlier run');
  });
});

describe('runNodeStatuses', () => {
  it('marks a failed sequential run: done steps, the failing step, the steps never reached', () => {
    const statuses = runNodeStatuses(
      { status: 'failed', processType: 'sequential', output: { n1: step('Researcher') }, logs: [] },
      definition,
    );
    expect(statuses).toEqual({ n1: 'completed', n2: 'failed', n3: 'pending' });
  });

  it('marks the steps a retry reused and the ones it ran', () => {
    const output = { n1: step('Researcher', { reused: true, reusedFrom: 'old' }), n2: step('Writer') };
    const statuses = runNodeStatuses(
      { status: 'running', processType: 'sequential', output, logs: [] },
      definition,
    );
    expect(statuses).toEqual({ n1: 'reused', n2: 'completed', n3: 'running' });
  });

  it('marks the step a waiting run waits at', () => {
    const waiting = {
      kind: 'approval' as const,
      nodeId: 'n2',
      title: 'Publish?',
      since: '2024-01-01T00:00:00Z',
      until: null,
      approvalId: 'ap1',
    };
    const statuses = runNodeStatuses(
      { status: 'waiting', processType: 'sequential', output: { n1: step('Researcher') }, logs: [], waiting },
      definition,
    );
    expect(statuses).toEqual({ n1: 'completed', n2: 'waiting', n3: 'pending' });
  });

  it('takes the failing step from an error log when one names it', () => {
    const logs: ExecutionLog[] = [
      { at: '2024-01-01T00:00:00Z', level: 'error', message: 'Model refused', nodeId: 'n3' },
    ];
    const statuses = runNodeStatuses(
      { status: 'failed', processType: 'parallel', output: { n1: step('Researcher') }, logs },
      definition,
    );
    expect(statuses).toEqual({ n1: 'completed', n2: 'pending', n3: 'failed' });
  });

  it('does not guess the failing step of a parallel run with several missing', () => {
    const statuses = runNodeStatuses(
      { status: 'failed', processType: 'parallel', output: { n1: step('Researcher') }, logs: [] },
      definition,
    );
    expect(statuses).toEqual({ n1: 'completed', n2: 'pending', n3: 'pending' });
  });

  it('counts a hierarchical delegation as its co-worker having run', () => {
    const statuses = runNodeStatuses(
      {
        status: 'completed',
        processType: 'hierarchical',
        output: { 'n2#1': step('Writer', { baseNodeId: 'n2', delegatedBy: 'n1' }), n1: step('Lead') },
        logs: [],
      },
      definition,
    );
    expect(statuses).toEqual({ n1: 'completed', n2: 'completed', n3: 'pending' });
  });
});

// Start → route (condition: billing, else) → billing | general → join (merge) → End.
const decideNodes: WorkflowNode[] = [
  { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
  {
    id: 'route',
    type: 'condition',
    position: { x: 200, y: 0 },
    data: {
      label: 'Route',
      branches: [{ id: 'billing', label: 'Billing', when: 'input.topic == "billing"' }],
    },
  },
  { id: 'billing', type: 'agent', position: { x: 400, y: -100 }, data: {} },
  { id: 'general', type: 'agent', position: { x: 400, y: 100 }, data: {} },
  { id: 'join', type: 'merge', position: { x: 600, y: 0 }, data: {} },
  { id: 'note', type: 'note', position: { x: 0, y: 200 }, data: { text: 'Read me' } },
  { id: 'end', type: 'end', position: { x: 800, y: 0 }, data: {} },
];
const decideEdges: WorkflowEdge[] = [
  { id: 'e0', source: 'start', target: 'route' },
  { id: 'e1', source: 'route', target: 'billing', sourceHandle: 'billing' },
  { id: 'e2', source: 'route', target: 'general', sourceHandle: 'else' },
  { id: 'e3', source: 'billing', target: 'join' },
  { id: 'e4', source: 'general', target: 'join' },
  { id: 'e5', source: 'join', target: 'end' },
];
const decide = { nodes: decideNodes, edges: decideEdges };
const noModel = (kind: NodeOutput['kind'], data: unknown): NodeOutput => ({
  content: '',
  kind,
  status: 'completed',
  data,
  metadata: {},
  executionTime: 1,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
});
const skipped: NodeOutput = { ...noModel('agent', undefined), status: 'skipped', executionTime: 0 };

describe('a run of a workflow that decides', () => {
  const completedRun = {
    status: 'completed' as const,
    processType: 'sequential',
    logs: [],
    output: {
      route: noModel('condition', { branch: 'billing' }),
      billing: step('Billing desk'),
      general: skipped,
      join: noModel('merge', [{ nodeId: 'billing', content: 'Billing desk says hi', data: null }]),
    },
  };

  it('marks every step kind, the skipped ones skipped, and never a note', () => {
    expect(runNodeStatuses(completedRun, decide)).toEqual({
      route: 'completed',
      billing: 'completed',
      general: 'skipped',
      join: 'completed',
    });
  });

  it('draws the path taken and dims the edges into and out of the skipped step', () => {
    const statuses = runNodeStatuses(completedRun, decide);
    expect(runBranches(completedRun.output)).toEqual({ route: 'billing' });
    expect(runEdgeMarks(statuses, runBranches(completedRun.output), decide)).toEqual({
      e0: 'taken',
      e1: 'taken',
      e2: 'not-taken',
      e3: 'taken',
      e4: 'not-taken',
      e5: 'taken',
    });
  });

  it('names the branch taken by its label, else by its id, and else as Else', () => {
    expect(branchLabel(decideNodes[1], 'billing')).toBe('Billing');
    expect(branchLabel(decideNodes[1], 'gone')).toBe('gone');
    expect(branchLabel(decideNodes[1], 'else')).toBe('Else');
  });

  it('a run read mid-way shows what it knows: the running step is on the branch taken, nothing is skipped yet', () => {
    const running = {
      status: 'running' as const,
      processType: 'sequential',
      logs: [],
      output: { route: noModel('condition', { branch: 'else' }) },
    };
    const statuses = runNodeStatuses(running, decide);
    // 'billing' comes first in the plan, but the condition took else: 'general' is the one running.
    expect(statuses).toEqual({ route: 'completed', billing: 'pending', general: 'running', join: 'pending' });
    const marks = runEdgeMarks(statuses, runBranches(running.output), decide);
    expect(marks).toEqual({ e0: 'taken', e1: 'not-taken', e2: 'taken' });
  });

  it('a failed run fails at the step its taken branch led to', () => {
    const failed = {
      status: 'failed' as const,
      processType: 'sequential',
      logs: [],
      output: { route: noModel('condition', { branch: 'else' }) },
    };
    expect(runNodeStatuses(failed, decide).general).toBe('failed');
    expect(runNodeStatuses(failed, decide).billing).toBe('pending');
  });
});

describe('a run of a map and a loop', () => {
  const mapNodes: WorkflowNode[] = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
    { id: 'each', type: 'map', position: { x: 200, y: 0 }, data: { label: 'Enrich leads' } },
    { id: 'draft', type: 'loop', position: { x: 400, y: 0 }, data: { label: 'Draft' } },
    { id: 'end', type: 'end', position: { x: 600, y: 0 }, data: {} },
  ];
  const mapEdges: WorkflowEdge[] = [
    { id: 'e0', source: 'start', target: 'each' },
    { id: 'e1', source: 'each', target: 'draft' },
    { id: 'e2', source: 'draft', target: 'end' },
  ];
  const item = (base: string): NodeOutput => ({ ...step('Enricher', { baseNodeId: base }), kind: 'agent' });

  it('keeps a map running while its items are stored, and counts them', () => {
    const running = {
      status: 'running' as const,
      processType: 'sequential',
      logs: [],
      output: { 'each[0]': item('each'), 'each[3]': item('each') },
    };
    expect(runNodeStatuses(running, { nodes: mapNodes, edges: mapEdges })).toEqual({
      each: 'running',
      draft: 'pending',
    });
    expect(runItemProgress(running)).toEqual({ each: { total: null, done: 2, failed: 0, pass: null } });
    // What the run's live state heard (its total, its items) joins what the read holds.
    const live = { each: { total: 20, children: { 'each[0]': 'completed', 'each[1]': 'running' } as const } };
    expect(runItemProgress(running, live).each).toEqual({ total: 20, done: 2, failed: 0, pass: null });
  });

  it('marks a loop by its own entry, not its passes', () => {
    const passesOnly = {
      status: 'running' as const,
      processType: 'sequential',
      logs: [],
      output: {
        each: noModel('map', [{ index: 0, status: 'completed', content: 'x', data: null }]),
        'draft#1': item('draft'),
      },
    };
    expect(runNodeStatuses(passesOnly, { nodes: mapNodes, edges: mapEdges })).toEqual({
      each: 'completed',
      draft: 'running',
    });
    expect(runItemProgress(passesOnly)).toEqual({
      each: { total: 1, done: 1, failed: 0, pass: null },
      draft: { total: null, done: 1, failed: 0, pass: 1 },
    });
  });
});

describe('retry', () => {
  it('is offered on failed and cancelled runs only', () => {
    const statuses = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
    expect(statuses.filter((status) => canRetry({ status, retriedBy: null }))).toEqual([
      'failed',
      'cancelled',
    ]);
  });

  it('is not offered again once the run was retried: the retry is retried instead', () => {
    expect(canRetry({ status: 'failed', retriedBy: 'b2c3d4e5-0000-0000-0000-000000000000' })).toBe(false);
    expect(canRetry({ status: 'cancelled', retriedBy: 'b2c3d4e5-0000-0000-0000-000000000000' })).toBe(false);
    expect(
      canRetryFromStep({ status: 'failed', processType: 'sequential', retriedBy: 'b2c3d4e5-0000' }),
    ).toBe(false);
  });

  it('offers retrying from a step on sequential runs only', () => {
    expect(canRetryFromStep({ status: 'failed', processType: 'sequential', retriedBy: null })).toBe(true);
    expect(canRetryFromStep({ status: 'failed', processType: 'parallel', retriedBy: null })).toBe(false);
    expect(canRetryFromStep({ status: 'completed', processType: 'sequential', retriedBy: null })).toBe(false);
  });

  it('offers retrying from an approval only on a completed run, where that approval said no', () => {
    const approval = (decision: string): NodeOutput => ({
      content: '',
      kind: 'approval',
      data: { decision, decisions: [], fields: {} },
      metadata: {},
      executionTime: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    const runOf = (decision: string, status: 'completed' | 'failed' | 'waiting' = 'completed') => ({
      status,
      processType: 'sequential' as const,
      retriedBy: null,
      output: { approve: approval(decision), draft: { ...approval(decision), kind: 'agent' as const } },
    });
    expect(canRetryFromApproval(runOf('rejected'), 'approve')).toBe(true);
    expect(canRetryFromApproval(runOf('timeout'), 'approve')).toBe(true);
    expect(canRetryFromApproval(runOf('approved'), 'approve')).toBe(false);
    expect(canRetryFromApproval(runOf('rejected'), 'draft')).toBe(false);
    expect(canRetryFromApproval(runOf('rejected', 'failed'), 'approve')).toBe(false);
    expect(canRetryFromApproval(runOf('rejected', 'waiting'), 'approve')).toBe(false);
    expect(canRetryFromApproval({ ...runOf('rejected'), retriedBy: 'b2c3d4e5' }, 'approve')).toBe(false);
  });

  it('names the failing step in the Error box, and leaves other errors as they are', () => {
    expect(
      runErrorText({
        error: 'The model provider answered 401 Unauthorized.',
        failedStep: 'Summarize',
      }),
    ).toBe('Step "Summarize" failed: The model provider answered 401 Unauthorized.');
    expect(runErrorText({ error: 'Cancelled by a user', failedStep: null })).toBe('Cancelled by a user');
    expect(runErrorText({ error: null, failedStep: null })).toBeNull();
  });

  it('links a retried run to its retry and the retry back to it', () => {
    const origin = '1a2b3c4d-0000-0000-0000-000000000000';
    const retry = 'b2c3d4e5-0000-0000-0000-000000000000';
    expect(retryLinks({ retryOf: null, retriedBy: retry })).toEqual({
      retriedAs: { id: retry, label: 'Retried as run #b2c3d4e5' },
      retryOf: null,
    });
    expect(retryLinks({ retryOf: origin, retriedBy: null })).toEqual({
      retriedAs: null,
      retryOf: { id: origin, label: 'Retry of run #1a2b3c4d' },
    });
  });

  it('names the workflow, and the step when retrying from one', () => {
    expect(retryStartedToast('Daily digest')).toEqual({
      title: 'Retry Started',
      description: '"Daily digest" is running again; the steps that completed are reused',
    });
    expect(retryStartedToast('Daily digest', 'Writer').description).toBe(
      '"Daily digest" is running again from Writer; the steps before it are reused',
    );
  });

  it("shows the server's reason when the retry is refused", () => {
    expect(
      retryFailedToast('Only a failed or cancelled execution can be retried; this one is running.'),
    ).toEqual({
      variant: 'destructive',
      title: 'Retry Failed',
      description: 'Only a failed or cancelled execution can be retried; this one is running.',
    });
    expect(retryFailedToast(null).description).toBe('Failed to retry the execution');
  });
});

describe('inRunOrder', () => {
  it('puts reused steps first, then the others in the order their log lines came', () => {
    const output = {
      write: step('Writer'),
      edit: step('Editor'),
      research: step('Researcher', { reused: true, reusedFrom: 'old' }),
    };
    const logs: ExecutionLog[] = [
      { at: '2024-01-01T00:00:01Z', level: 'info', message: 'Run started' },
      { at: '2024-01-01T00:00:02Z', level: 'info', message: 'Writer finished in 5 ms', nodeId: 'write' },
      { at: '2024-01-01T00:00:03Z', level: 'info', message: 'Editor finished in 5 ms', nodeId: 'edit' },
    ];
    const steps = Object.keys(output).map((nodeId) => ({ nodeId }));
    expect(inRunOrder(steps, { output, logs }).map((s) => s.nodeId)).toEqual(['research', 'write', 'edit']);
  });
});
