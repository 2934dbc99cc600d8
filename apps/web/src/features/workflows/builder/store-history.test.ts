import { beforeEach, describe, expect, it } from 'vitest';

import { isDirty, useBuilderStore } from './store';

const agent = { id: 'a1', name: 'Researcher', role: 'Finds facts' };
const store = () => useBuilderStore.getState();
const agentCount = () => store().nodes.filter((n) => n.type === 'agent').length;

describe('builder undo/redo and clipboard', () => {
  beforeEach(() => store().startNew());

  it('undoes and redoes adding a node, and disables undo on a fresh workflow', () => {
    expect(store().history.past).toHaveLength(0);
    store().addAgentNode(agent);
    expect(agentCount()).toBe(1);
    store().undo();
    expect(agentCount()).toBe(0);
    store().redo();
    expect(agentCount()).toBe(1);
  });

  it('records one step per drag, not per pixel', () => {
    const id = store().addAgentNode(agent, { x: 0, y: 0 });
    store().beginDrag();
    for (let x = 1; x <= 50; x++) {
      store().onNodesChange([{ type: 'position', id, position: { x, y: 0 }, dragging: true }]);
    }
    store().onNodesChange([{ type: 'position', id, position: { x: 50, y: 0 }, dragging: false }]);
    store().endDrag();
    store().undo();
    expect(store().nodes.find((n) => n.id === id)!.position).toEqual({ x: 0, y: 0 });
    expect(agentCount()).toBe(1);
  });

  it('records a run of arrow-key moves outside a drag as one step', () => {
    const id = store().addAgentNode(agent, { x: 0, y: 0 });
    for (let x = 5; x <= 20; x += 5) store().onNodesChange([{ type: 'position', id, position: { x, y: 0 } }]);
    store().undo();
    expect(store().nodes.find((n) => n.id === id)!.position).toEqual({ x: 0, y: 0 });
  });

  it('does not record selection changes', () => {
    const id = store().addAgentNode(agent);
    const steps = store().history.past.length;
    store().onNodesChange([{ type: 'select', id, selected: true }]);
    expect(store().history.past).toHaveLength(steps);
  });

  it('deletes the selection with its edges in one step, keeping Start and End', () => {
    const a = store().addAgentNode(agent);
    store().onConnect({ source: 'start', target: a, sourceHandle: null, targetHandle: null });
    store().onConnect({ source: a, target: 'end', sourceHandle: null, targetHandle: null });
    store().onNodesChange(store().nodes.map((n) => ({ type: 'select', id: n.id, selected: true })));
    store().deleteSelection();
    expect(store().nodes.map((n) => n.id)).toEqual(['start', 'end']);
    expect(store().edges).toEqual([]);
    store().undo();
    expect(agentCount()).toBe(1);
    expect(store().edges).toHaveLength(2);
  });

  it('coalesces typing in one field into one step', () => {
    for (const name of ['R', 'Re', 'Rep', 'Repo']) store().setSettings({ name });
    store().setSettings({ description: 'x' });
    store().undo();
    expect(store().settings).toMatchObject({ name: 'Repo', description: '' });
    store().undo();
    expect(store().settings.name).toBe('');
  });

  it('coalesces typing in one node property, and undoes it', () => {
    const id = store().addAgentNode(agent);
    for (const label of ['W', 'Wr', 'Wri']) store().updateNodeData(id, { label });
    store().undo();
    expect(store().nodes.find((n) => n.id === id)!.data.label).toBe('Researcher');
  });

  it('pastes copies offset and selected, and undoes a 200-node paste in one step', () => {
    for (let i = 0; i < 200; i++) store().addAgentNode(agent, { x: i * 300, y: 0 });
    store().onNodesChange(store().nodes.map((n) => ({ type: 'select', id: n.id, selected: true })));
    expect(store().copySelection()).toBe(200);
    store().paste();
    expect(agentCount()).toBe(400);
    const pasted = store().nodes.filter((n) => n.selected);
    expect(pasted).toHaveLength(200);
    expect(pasted[0]!.position).toEqual({ x: 30, y: 30 });
    store().undo();
    expect(agentCount()).toBe(200);
  });

  it('duplicates the selection but never Start or End', () => {
    store().addAgentNode(agent);
    store().onNodesChange(store().nodes.map((n) => ({ type: 'select', id: n.id, selected: true })));
    expect(store().duplicateSelection()).toBe(1);
    expect(store().nodes.filter((n) => n.type === 'start')).toHaveLength(1);
    expect(agentCount()).toBe(2);
  });

  it('applies Tidy up positions as one step', () => {
    const a = store().addAgentNode(agent, { x: 0, y: 0 });
    store().applyPositions(
      new Map([
        [a, { x: 300, y: 300 }],
        ['start', { x: 0, y: 300 }],
      ]),
    );
    expect(store().nodes.find((n) => n.id === a)!.position).toEqual({ x: 300, y: 300 });
    store().undo();
    expect(store().nodes.find((n) => n.id === a)!.position).toEqual({ x: 0, y: 0 });
    expect(store().nodes.find((n) => n.id === 'start')!.position).toEqual({ x: 100, y: 100 });
  });

  it('knows about unsaved changes until they are saved or undone', () => {
    expect(isDirty()).toBe(false);
    store().addAgentNode(agent);
    expect(isDirty()).toBe(true);
    store().undo();
    expect(isDirty()).toBe(false);
    store().setSettings({ name: 'Report' });
    store().markSaved(
      { settings: store().settings, nodes: store().nodes, edges: store().edges },
      { id: 'w1', status: 'draft' },
      true,
    );
    expect(isDirty()).toBe(false);
    expect(store()).toMatchObject({ workflowId: 'w1', existingStatus: 'draft', sessionKey: 'edit:w1' });
  });
});
