import type { NodeKind } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { heardStep, NOTHING_HEARD, type StepsHeard } from '@/lib/runs/run-state';

import {
  agentName,
  heardFromOutput,
  mergeHeard,
  plannedSteps,
  runPlanOf,
  stepProgressLabel,
} from './step-progress';

const node = (id: string, type: NodeKind, label?: string) => ({
  id,
  type,
  data: label ? { label } : {},
});
// Start → Researcher → Analyst → Writer → End, placed Writer first on the canvas.
const workflow = {
  nodes: [
    node('start', 'start', 'Start'),
    node('w', 'agent', 'Writer'),
    node('r', 'agent', 'Researcher'),
    node('a', 'agent', 'Analyst'),
    node('end', 'end', 'End'),
  ],
  edges: [
    { source: 'start', target: 'r' },
    { source: 'r', target: 'a' },
    { source: 'a', target: 'w' },
    { source: 'w', target: 'end' },
  ],
};

const hear = (...events: [string, string][]): StepsHeard =>
  events.reduce(
    (heard, [type, baseNodeId]) => heardStep(heard, { type: `execution_node_${type}`, baseNodeId }),
    NOTHING_HEARD,
  );

describe('the running card’s step', () => {
  it('numbers a sequential step by its place along the edges', () => {
    expect(plannedSteps('sequential', workflow)).toEqual(['r', 'a', 'w']);
    expect(stepProgressLabel('sequential', workflow, hear(['started', 'r']))).toBe(
      'Step 1 of 3 · Researcher',
    );
    expect(
      stepProgressLabel('sequential', workflow, hear(['started', 'r'], ['completed', 'r'], ['started', 'a'])),
    ).toBe('Step 2 of 3 · Analyst');
  });

  it('says nothing before a step is heard, once every step is done, or without the workflow', () => {
    expect(stepProgressLabel('sequential', workflow, NOTHING_HEARD)).toBeNull();
    expect(
      stepProgressLabel(
        'sequential',
        workflow,
        hear(
          ['started', 'r'],
          ['completed', 'r'],
          ['started', 'a'],
          ['completed', 'a'],
          ['started', 'w'],
          ['completed', 'w'],
        ),
      ),
    ).toBeNull();
    expect(stepProgressLabel('sequential', undefined, hear(['started', 'r']))).toBeNull();
  });

  it('shows the next planned step between two steps', () => {
    expect(stepProgressLabel('sequential', workflow, hear(['started', 'r'], ['completed', 'r']))).toBe(
      'Step 2 of 3 · Analyst',
    );
  });

  it('starts from the stored outputs of a run already under way, events heard since on top', () => {
    const output = {
      r: { metadata: {} },
      'a#1': { metadata: { baseNodeId: 'a' } },
    };
    const stored = heardFromOutput(output);
    expect(stored).toEqual({ started: ['r', 'a'], ended: ['r', 'a'] });
    expect(stepProgressLabel('sequential', workflow, stored)).toBe('Step 3 of 3 · Writer');
    expect(stepProgressLabel('hierarchical', workflow, heardFromOutput({ a: { metadata: {} } }))).toBe(
      'Step 1 of 3 · Researcher',
    );
    expect(stepProgressLabel('parallel', workflow, heardFromOutput({ r: { metadata: {} } }))).toBe(
      'Step 2 of 3 · Writer, Analyst',
    );
    // A map's stored items say it started, not that it ended (its own entry does).
    expect(heardFromOutput({ r: { metadata: {} }, 'a[0]': { metadata: { baseNodeId: 'a' } } })).toEqual({
      started: ['r', 'a'],
      ended: ['r'],
    });
    // The analyst's step starts again: the event wins over the stored record.
    const merged = mergeHeard(stored, hear(['started', 'a']));
    expect(merged).toEqual({ started: ['r', 'a'], ended: ['r'] });
    expect(stepProgressLabel('sequential', workflow, merged)).toBe('Step 2 of 3 · Analyst');
  });

  it('shows a hierarchical co-worker while delegated to, then the lead again', () => {
    const delegating = hear(['started', 'r'], ['started', 'w']);
    expect(stepProgressLabel('hierarchical', workflow, delegating)).toBe('Step 3 of 3 · Writer');
    expect(
      stepProgressLabel(
        'hierarchical',
        workflow,
        heardStep(delegating, { type: 'execution_node_completed', baseNodeId: 'w' }),
      ),
    ).toBe('Step 1 of 3 · Researcher');
    // A second delegation to the same co-worker shows it again.
    const again = heardStep(heardStep(delegating, { type: 'execution_node_completed', baseNodeId: 'w' }), {
      type: 'execution_node_started',
      baseNodeId: 'w',
    });
    expect(stepProgressLabel('hierarchical', workflow, again)).toBe('Step 3 of 3 · Writer');
  });

  it('counts a parallel run as its steps finish and names every agent still at work', () => {
    expect(plannedSteps('parallel', workflow)).toEqual(['w', 'r', 'a']);
    const all = hear(['started', 'w'], ['started', 'r'], ['started', 'a']);
    expect(stepProgressLabel('parallel', workflow, all)).toBe('Step 1 of 3 · Writer, Researcher, Analyst');
    const oneDone = heardStep(all, { type: 'execution_node_completed', baseNodeId: 'r' });
    expect(stepProgressLabel('parallel', workflow, oneDone)).toBe('Step 2 of 3 · Writer, Analyst');
    const twoDone = heardStep(oneDone, { type: 'execution_node_failed', baseNodeId: 'w' });
    expect(stepProgressLabel('parallel', workflow, twoDone)).toBe('Step 3 of 3 · Analyst');
  });

  it("falls back to 'Agent' for a node without a label", () => {
    const unnamed = {
      ...workflow,
      nodes: workflow.nodes.map((n) => (n.id === 'r' ? node('r', 'agent') : n)),
    };
    expect(stepProgressLabel('sequential', unnamed, hear(['started', 'r']))).toBe('Step 1 of 3 · Agent');
  });
});

describe('the plan a running card counts on', () => {
  // The run started on version 2: Start → Researcher → Writer. Since then the workflow was edited:
  // an Analyst added between them and the Writer renamed Editor (version 3, the current definition).
  const pinned = {
    processType: 'sequential',
    nodes: [
      node('start', 'start'),
      node('r', 'agent', 'Researcher'),
      node('w', 'agent', 'Writer'),
      node('end', 'end'),
    ],
    edges: [
      { source: 'start', target: 'r' },
      { source: 'r', target: 'w' },
      { source: 'w', target: 'end' },
    ],
  };
  const edited = {
    nodes: workflow.nodes.map((n) => (n.id === 'w' ? node('w', 'agent', 'Editor') : n)),
    edges: workflow.edges,
  };
  const run = { workflowVersion: 2, processType: 'sequential' };
  const heard = hear(['started', 'r'], ['completed', 'r'], ['started', 'w']);

  it("counts and names the steps of the run's own version, not the workflow as edited since", () => {
    const plan = runPlanOf(run, { data: pinned, failed: false }, edited);
    expect(stepProgressLabel(plan!.processType, plan, heard)).toBe('Step 2 of 2 · Writer');
    // The current definition would have said 'Step 3 of 3 · Editor'.
    expect(stepProgressLabel('sequential', edited, heard)).toBe('Step 3 of 3 · Editor');
  });

  it("plans on the version's process type: a workflow switched to parallel since keeps its run sequential", () => {
    const plan = runPlanOf(
      { workflowVersion: 2, processType: 'parallel' },
      { data: pinned, failed: false },
      edited,
    );
    expect(plan?.processType).toBe('sequential');
  });

  it('shows no count while the version loads, rather than a wrong one', () => {
    expect(runPlanOf(run, { failed: false }, edited)).toBeUndefined();
  });

  it('falls back to the current definition for a run without a version, or whose version cannot be read', () => {
    const legacy = runPlanOf({ workflowVersion: null, processType: 'sequential' }, { failed: false }, edited);
    expect(stepProgressLabel(legacy!.processType, legacy, heard)).toBe('Step 3 of 3 · Editor');
    expect(runPlanOf(run, { failed: true }, edited)).toEqual({ ...edited, processType: 'sequential' });
    expect(runPlanOf(run, { failed: true }, undefined)).toBeUndefined();
  });
});

describe('agentName', () => {
  it('names a step by its label, else by its kind', () => {
    const nodes = [
      { id: 'a', type: 'agent' as const, data: { name: 'Writer' } },
      { id: 'c', type: 'condition' as const, data: {} },
      { id: 't', type: 'transform' as const, data: { label: 'Totals' } },
    ];
    expect(agentName(nodes, 'a')).toBe('Writer');
    expect(agentName(nodes, 'c')).toBe('Condition');
    expect(agentName(nodes, 't')).toBe('Totals');
    expect(agentName(nodes, 'gone')).toBe('Agent');
  });
});
