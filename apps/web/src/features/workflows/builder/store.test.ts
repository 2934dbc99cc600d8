import { beforeEach, describe, expect, it } from 'vitest';

import { builderSnapshot, isDirty, useBuilderStore } from './store';

const agent = { id: 'a1', name: 'Researcher', role: 'Finds facts', description: 'Digs', llmModel: 'gpt-4o' };

describe('builder store', () => {
  beforeEach(() => useBuilderStore.getState().startNew());

  it('opens a new workflow with undeletable Start (100,100) and End (500,100)', () => {
    const { nodes, edges, settings } = useBuilderStore.getState();
    expect(nodes.map((n) => [n.id, n.type, n.position, n.deletable])).toEqual([
      ['start', 'start', { x: 100, y: 100 }, false],
      ['end', 'end', { x: 500, y: 100 }, false],
    ]);
    expect(edges).toEqual([]);
    expect(settings).toMatchObject({ processType: 'sequential', triggerType: 'manual' });
  });

  it('adds an agent node with the agent data, text output and the database destination', () => {
    const id = useBuilderStore.getState().addAgentNode(agent, { x: 10, y: 20 });
    const node = useBuilderStore.getState().nodes.find((n) => n.id === id)!;
    expect(node.type).toBe('agent');
    expect(node.position).toEqual({ x: 10, y: 20 });
    expect(node.data).toMatchObject({
      label: 'Researcher',
      name: 'Researcher',
      role: 'Finds facts',
      agentId: 'a1',
      model: 'gpt-4o',
      outputFormat: 'text',
      outputDestination: 'database',
    });
  });

  it('adds an agent node at a random position when none is given', () => {
    const id = useBuilderStore.getState().addAgentNode(agent);
    const node = useBuilderStore.getState().nodes.find((n) => n.id === id)!;
    expect(Number.isFinite(node.position.x) && Number.isFinite(node.position.y)).toBe(true);
  });

  it('removing a node removes its edges', () => {
    const s = useBuilderStore.getState();
    const id = s.addAgentNode(agent);
    s.onConnect({ source: 'start', target: id, sourceHandle: null, targetHandle: null });
    s.onConnect({ source: id, target: 'end', sourceHandle: null, targetHandle: null });
    s.onConnect({ source: 'start', target: 'end', sourceHandle: null, targetHandle: null });
    expect(useBuilderStore.getState().edges).toHaveLength(3);
    expect(useBuilderStore.getState().removeNode(id)).toBe(true);
    const { nodes, edges } = useBuilderStore.getState();
    expect(nodes.some((n) => n.id === id)).toBe(false);
    expect(edges.map((e) => [e.source, e.target])).toEqual([['start', 'end']]);
  });

  it('removing a node through canvas changes also removes its edges', () => {
    const s = useBuilderStore.getState();
    const id = s.addAgentNode(agent);
    s.onConnect({ source: 'start', target: id, sourceHandle: null, targetHandle: null });
    s.onNodesChange([{ type: 'remove', id }]);
    expect(useBuilderStore.getState().edges).toEqual([]);
  });

  it('Start and End cannot be removed', () => {
    const s = useBuilderStore.getState();
    expect(s.removeNode('start')).toBe(false);
    expect(s.removeNode('end')).toBe(false);
    s.onNodesChange([
      { type: 'remove', id: 'start' },
      { type: 'remove', id: 'end' },
    ]);
    expect(useBuilderStore.getState().nodes.map((n) => n.id)).toEqual(['start', 'end']);
  });

  it('updates node data and stamps lastUpdated', () => {
    const s = useBuilderStore.getState();
    const id = s.addAgentNode(agent);
    s.updateNodeData(id, { outputDestination: 'file', filePath: '/tmp/out.txt' });
    const node = useBuilderStore.getState().nodes.find((n) => n.id === id)!;
    expect(node.data.outputDestination).toBe('file');
    expect(node.data.filePath).toBe('/tmp/out.txt');
    expect(node.data.lastUpdated).not.toBe('');
  });

  it('selecting an edge opens Properties and Delete Connection removes it', () => {
    const s = useBuilderStore.getState();
    s.onConnect({ source: 'start', target: 'end', sourceHandle: null, targetHandle: null });
    const edgeId = useBuilderStore.getState().edges[0].id;
    s.selectEdge(edgeId);
    expect(useBuilderStore.getState()).toMatchObject({ selectedEdgeId: edgeId, tab: 'properties' });
    s.removeEdge(edgeId);
    expect(useBuilderStore.getState()).toMatchObject({ edges: [], selectedEdgeId: null });
  });

  it('loads a saved workflow with its positions and keeps Start/End undeletable', () => {
    useBuilderStore.getState().loadWorkflow({
      id: 'w1',
      name: 'Flow',
      description: null,
      processType: 'parallel',
      triggerType: 'manual',
      triggerConfig: {},
      nodes: [
        { id: 's', type: 'start', position: { x: 1, y: 2 }, data: { label: 'Start' } },
        { id: 'x', type: 'agent', agentId: 'a1', position: { x: 3, y: 4 }, data: { label: 'X' } },
      ],
      edges: [{ id: 'e1', source: 's', target: 'x' }],
      config: {},
      status: 'paused',
      templateCategory: null,
      templateTags: [],
      organizationId: 'o1',
      createdBy: null,
      createdAt: '',
      updatedAt: '',
      nextRunAt: null,
      lastTriggerError: null,
    });
    const state = useBuilderStore.getState();
    expect(state.existingStatus).toBe('paused');
    expect(state.nodes[0]).toMatchObject({ id: 's', deletable: false, position: { x: 1, y: 2 } });
    expect(state.nodes[1].data).toMatchObject({ agentId: 'a1', outputFormat: 'text' });
    expect(builderSnapshot().settings.processType).toBe('parallel');
  });

  it('keeps the Execute dialog open while a new workflow becomes the saved one (Activate and run)', () => {
    const store = useBuilderStore.getState();
    store.setRunOpen(true);
    store.markSaved(builderSnapshot(), { id: 'w1', status: 'active' }, true);
    expect(useBuilderStore.getState()).toMatchObject({
      runOpen: true,
      workflowId: 'w1',
      existingStatus: 'active',
      sessionKey: 'edit:w1',
    });
    // Another workflow starts with it closed.
    useBuilderStore.getState().startNew();
    expect(useBuilderStore.getState().runOpen).toBe(false);
  });

  it('changes only the status on Pause and Resume: the edits stay unsaved, the saved ones stay saved', () => {
    const store = useBuilderStore.getState();
    store.markSaved(builderSnapshot(), { id: 'w1', status: 'active' }, true);
    useBuilderStore.getState().setExistingStatus('paused');
    expect(useBuilderStore.getState().existingStatus).toBe('paused');
    expect(isDirty()).toBe(false);
    useBuilderStore.getState().setSettings({ name: 'Renamed' });
    useBuilderStore.getState().setExistingStatus('active');
    expect(isDirty()).toBe(true);
    expect(useBuilderStore.getState().settings.name).toBe('Renamed');
  });

  it('adds a palette step with its kind’s label and first fields, where it is asked to go', () => {
    const s = useBuilderStore.getState();
    const id = s.addKindNode('condition', { x: 40, y: 60 });
    const node = useBuilderStore.getState().nodes.find((n) => n.id === id)!;
    expect(id).toMatch(/^condition-/);
    expect(node).toMatchObject({ type: 'condition', position: { x: 40, y: 60 } });
    expect(node.data).toMatchObject({
      label: 'Condition',
      branches: [{ id: 'branch-1', label: 'Branch 1', when: '' }],
    });
    const note = useBuilderStore.getState().addKindNode('note');
    expect(useBuilderStore.getState().nodes.find((n) => n.id === note)!.data).toMatchObject({ text: '' });
  });

  it('connects a condition’s paths with the branch each leaves from, two paths to one step included', () => {
    const s = useBuilderStore.getState();
    const id = s.addKindNode('condition', { x: 0, y: 0 });
    s.onConnect({ source: id, sourceHandle: 'branch-1', target: 'end', targetHandle: null });
    s.onConnect({ source: id, sourceHandle: 'else', target: 'end', targetHandle: null });
    s.onConnect({ source: 'start', sourceHandle: null, target: id, targetHandle: null });
    expect(useBuilderStore.getState().edges.map((e) => [e.id, e.sourceHandle ?? null])).toEqual([
      [`e-${id}-branch-1-end`, 'branch-1'],
      [`e-${id}-else-end`, 'else'],
      [`e-start-${id}`, null],
    ]);
  });

  it('removes the paths of a removed branch with it, in one step that undo brings back whole', () => {
    const s = useBuilderStore.getState();
    const id = s.addKindNode('condition', { x: 0, y: 0 });
    const branches = [
      { id: 'branch-1', label: 'Billing', when: 'true' },
      { id: 'branch-2', label: 'Sales', when: 'false' },
    ];
    s.updateNodeData(id, { branches }, null);
    s.onConnect({ source: id, sourceHandle: 'branch-1', target: 'end', targetHandle: null });
    s.onConnect({ source: id, sourceHandle: 'branch-2', target: 'end', targetHandle: null });
    s.onConnect({ source: id, sourceHandle: 'else', target: 'end', targetHandle: null });

    useBuilderStore.getState().updateNodeData(id, { branches: [branches[1]] }, null);
    expect(useBuilderStore.getState().edges.map((e) => e.sourceHandle)).toEqual(['branch-2', 'else']);
    useBuilderStore.getState().undo();
    const { nodes, edges } = useBuilderStore.getState();
    expect(nodes.find((n) => n.id === id)!.data.branches).toEqual(branches);
    expect(edges.map((e) => e.sourceHandle)).toEqual(['branch-1', 'branch-2', 'else']);
  });

  it('makes the keystrokes in one field one step, and a field of its own a step of its own', () => {
    const s = useBuilderStore.getState();
    const id = s.addKindNode('transform', { x: 0, y: 0 });
    const past = () => useBuilderStore.getState().history.past.length;
    const before = past();
    for (const value of ['n', 'no', 'now']) {
      useBuilderStore
        .getState()
        .updateNodeData(id, { assignments: [{ name: 'x', value }] }, 'assignments:0:value');
    }
    expect(past()).toBe(before + 1);
    useBuilderStore.getState().updateNodeData(id, { assignments: [] }, null);
    useBuilderStore.getState().updateNodeData(id, { assignments: [] }, null);
    expect(past()).toBe(before + 3);
  });

  it('loads a saved condition’s paths with their branches, so saving again keeps them', () => {
    useBuilderStore.getState().loadWorkflow({
      id: 'w1',
      name: 'Flow',
      description: null,
      processType: 'sequential',
      triggerType: 'manual',
      triggerConfig: {},
      nodes: [
        {
          id: 'c',
          type: 'condition',
          position: { x: 0, y: 0 },
          data: { label: 'Route', branches: [{ id: 'b', label: 'B', when: 'true' }] },
        },
        { id: 'end', type: 'end', position: { x: 3, y: 4 }, data: {} },
      ],
      edges: [
        { id: 'e1', source: 'c', target: 'end', sourceHandle: 'else' },
        { id: 'e2', source: 'c', target: 'end', sourceHandle: 'b' },
      ],
      config: {},
      status: 'draft',
      templateCategory: null,
      templateTags: [],
      organizationId: 'o1',
      createdBy: null,
      createdAt: '',
      updatedAt: '',
      nextRunAt: null,
      lastTriggerError: null,
    });
    expect(useBuilderStore.getState().edges.map((e) => e.sourceHandle)).toEqual(['else', 'b']);
    expect(isDirty()).toBe(false);
  });
});
