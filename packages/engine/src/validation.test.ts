import type { NodeKind } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { isValidCron, validateWorkflow, type WorkflowDraft } from './validation';

const node = (id: string, type: NodeKind, agentId?: string) => ({
  id,
  type,
  agentId,
  data: { label: id.toUpperCase() },
});

const base = (overrides: Partial<WorkflowDraft> = {}): WorkflowDraft => ({
  name: 'Blog pipeline',
  triggerType: 'manual',
  triggerConfig: {},
  nodes: [
    node('start', 'start'),
    node('a', 'agent', 'agent-1'),
    node('b', 'agent', 'agent-2'),
    node('end', 'end'),
  ],
  edges: [
    { source: 'start', target: 'a' },
    { source: 'a', target: 'b' },
    { source: 'b', target: 'end' },
  ],
  ...overrides,
});
const known = (id: string) => id === 'agent-1' || id === 'agent-2';

describe('workflow validation', () => {
  it('accepts a connected start → agents → end workflow', () => {
    expect(validateWorkflow(base(), known)).toEqual({ errors: [], warnings: [] });
  });

  it('requires a name', () => {
    expect(validateWorkflow(base({ name: '  ' }), known).errors).toEqual(['Please enter a workflow name']);
  });

  it('requires a start node and an end node', () => {
    const nodes = [node('a', 'agent', 'agent-1')];
    expect(validateWorkflow(base({ nodes, edges: [] }), known).errors).toEqual([
      'Workflow must have a start node',
      'Workflow must have an end node',
    ]);
  });

  it('requires agent nodes to reference an existing agent of the organization', () => {
    const nodes = [
      node('start', 'start'),
      node('x', 'agent', 'ghost'),
      node('y', 'agent'),
      node('end', 'end'),
    ];
    expect(validateWorkflow(base({ nodes }), known).errors).toEqual([
      'Step "X" uses an agent that was deleted. Open the workflow and choose another agent.',
      'Step "Y" has no agent. Open the workflow and choose an agent.',
    ]);
  });

  it("names a step by its label, else its agent's name, never by the node's id", () => {
    const nodes = [
      node('start', 'start'),
      { id: 'agent-mx587z27-1', type: 'agent' as const, agentId: 'gone', data: { name: 'Summarize' } },
      { id: 'agent-mx587z27-2', type: 'agent' as const, agentId: 'gone', data: {} },
      node('end', 'end'),
    ];
    expect(validateWorkflow(base({ nodes, edges: [] }), known).errors).toEqual([
      'Step "Summarize" uses an agent that was deleted. Open the workflow and choose another agent.',
      'Step "Untitled" uses an agent that was deleted. Open the workflow and choose another agent.',
    ]);
  });

  it('requires a parsable cron expression for a schedule trigger', () => {
    const message = 'Please enter a valid cron expression for scheduled workflows';
    expect(validateWorkflow(base({ triggerType: 'schedule', triggerConfig: {} }), known).errors).toEqual([
      message,
    ]);
    expect(
      validateWorkflow(base({ triggerType: 'schedule', triggerConfig: { cron: 'every day' } }), known).errors,
    ).toEqual([message]);
    expect(
      validateWorkflow(base({ triggerType: 'schedule', triggerConfig: { cron: '0 9 * * 1-5' } }), known)
        .errors,
    ).toEqual([]);
    expect(isValidCron('*/15 * * * *')).toBe(true);
    expect(isValidCron('61 * * * *')).toBe(false);
  });

  it('requires an email address for an email trigger', () => {
    const message = 'Please enter an email address for email-triggered workflows';
    expect(validateWorkflow(base({ triggerType: 'email', triggerConfig: {} }), known).errors).toEqual([
      message,
    ]);
    expect(
      validateWorkflow(base({ triggerType: 'email', triggerConfig: { emailAddress: 'nope' } }), known).errors,
    ).toEqual([message]);
    expect(
      validateWorkflow(base({ triggerType: 'email', triggerConfig: { emailAddress: 'in@acme.test' } }), known)
        .errors,
    ).toEqual([]);
  });

  it('warns about a node that is not connected, without blocking', () => {
    const result = validateWorkflow(base({ nodes: [...base().nodes, node('c', 'agent', 'agent-1')] }), known);
    expect(result).toEqual({ errors: [], warnings: ['Node "C" is not connected'] });
  });

  it('warns about possible cycles', () => {
    const edges = [...base().edges, { source: 'b', target: 'a' }];
    expect(validateWorkflow(base({ edges }), known).warnings).toEqual([
      'Workflow may contain cycles which could cause infinite loops',
    ]);
  });

  it('warns about nodes not reachable from the start node', () => {
    const nodes = [...base().nodes, node('c', 'agent', 'agent-1'), node('d', 'agent', 'agent-2')];
    const edges = [...base().edges, { source: 'c', target: 'd' }];
    expect(validateWorkflow(base({ nodes, edges }), known).warnings).toEqual([
      'Node "C" is not reachable from the start node',
      'Node "D" is not reachable from the start node',
    ]);
  });

  it('ignores edges that point at missing nodes', () => {
    const edges = [...base().edges, { source: 'a', target: 'gone' }];
    expect(validateWorkflow(base({ edges }), known)).toEqual({ errors: [], warnings: [] });
  });
});
