// The builder's editor state in one zustand store: nodes, edges, workflow settings, selection and the
// open tab. Components subscribe with narrow selectors so typing in a field does not re-render the
// canvas, and dragging a node does not re-render the panels.
import type { Workflow } from '@crewline/contracts';
import {
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import { create } from 'zustand';

import type {
  BuilderEdge,
  BuilderNode,
  BuilderNodeData,
  SidebarTab,
  TriggerConfig,
  WorkflowSettings,
} from './types';
import {
  createAgentNode,
  DEFAULT_SETTINGS,
  defaultNodes,
  edgeId,
  isProtectedType,
  NODE_COLORS,
  freePosition,
  settingsFromWorkflow,
  toBuilderEdge,
  toBuilderNode,
  type AgentLike,
  type BuilderSnapshot,
} from './workflow-logic';

type WorkflowStatus = Workflow['status'];

export interface BuilderState {
  /** Which workflow the state belongs to: 'new' or 'edit:<id>'; null before the first load. */
  sessionKey: string | null;
  workflowId: string | null;
  existingStatus: WorkflowStatus | null;
  settings: WorkflowSettings;
  nodes: BuilderNode[];
  edges: BuilderEdge[];
  selectedNodeId: string | null;
  selectedEdgeId: string | null;
  tab: SidebarTab;
  /** Typed beside Save; kept with the version the next save records (docs/product-rules.md). */
  versionNote: string;

  startNew: () => void;
  loadWorkflow: (workflow: Workflow) => void;
  setSettings: (patch: Partial<Omit<WorkflowSettings, 'triggerConfig'>>) => void;
  setTriggerConfig: (patch: Partial<TriggerConfig>) => void;
  setTab: (tab: SidebarTab) => void;
  setVersionNote: (note: string) => void;

  onNodesChange: (changes: NodeChange<BuilderNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<BuilderEdge>[]) => void;
  onConnect: (connection: Connection) => void;

  addAgentNode: (agent: AgentLike, position?: { x: number; y: number }) => string;
  updateNodeData: (id: string, patch: Partial<BuilderNodeData>) => void;
  removeNode: (id: string) => boolean;
  removeEdge: (id: string) => void;
  selectNode: (id: string | null) => void;
  selectEdge: (id: string | null) => void;
  clearSelection: () => void;
}

let counter = 0;
function newNodeId(): string {
  counter += 1;
  return `agent-${Date.now().toString(36)}-${counter}`;
}

const emptySelection = { selectedNodeId: null, selectedEdgeId: null } as const;

export const useBuilderStore = create<BuilderState>()((set, get) => ({
  sessionKey: null,
  workflowId: null,
  existingStatus: null,
  settings: DEFAULT_SETTINGS,
  nodes: [],
  edges: [],
  ...emptySelection,
  tab: 'agents',
  versionNote: '',

  startNew: () =>
    set({
      sessionKey: 'new',
      workflowId: null,
      existingStatus: null,
      settings: { ...DEFAULT_SETTINGS, triggerConfig: {} },
      nodes: defaultNodes(),
      edges: [],
      ...emptySelection,
      tab: 'agents',
      versionNote: '',
    }),

  loadWorkflow: (workflow) =>
    set({
      sessionKey: `edit:${workflow.id}`,
      workflowId: workflow.id,
      existingStatus: workflow.status,
      settings: settingsFromWorkflow(workflow),
      nodes: (workflow.nodes ?? []).map(toBuilderNode),
      edges: (workflow.edges ?? []).map(toBuilderEdge),
      ...emptySelection,
      tab: 'agents',
      versionNote: '',
    }),

  setSettings: (patch) => set((s) => ({ settings: { ...s.settings, ...patch } })),
  setTriggerConfig: (patch) =>
    set((s) => ({ settings: { ...s.settings, triggerConfig: { ...s.settings.triggerConfig, ...patch } } })),
  setTab: (tab) => set({ tab }),
  setVersionNote: (versionNote) => set({ versionNote }),

  onNodesChange: (changes) => {
    const { nodes } = get();
    const protectedIds = new Set(nodes.filter((n) => isProtectedType(n.type)).map((n) => n.id));
    const allowed = changes.filter((c) => !(c.type === 'remove' && protectedIds.has(c.id)));
    if (allowed.length === 0) return;
    const removed = new Set(allowed.flatMap((c) => (c.type === 'remove' ? [c.id] : [])));
    set((s) => {
      const next: Partial<BuilderState> = { nodes: applyNodeChanges(allowed, s.nodes) };
      if (removed.size > 0) {
        next.edges = s.edges.filter((e) => !removed.has(e.source) && !removed.has(e.target));
        if (s.selectedNodeId && removed.has(s.selectedNodeId)) next.selectedNodeId = null;
      }
      return next;
    });
  },

  onEdgesChange: (changes) =>
    set((s) => {
      const removed = new Set(changes.flatMap((c) => (c.type === 'remove' ? [c.id] : [])));
      return {
        edges: applyEdgeChanges(changes, s.edges),
        ...(s.selectedEdgeId && removed.has(s.selectedEdgeId) ? { selectedEdgeId: null } : {}),
      };
    }),

  onConnect: (connection) => {
    if (!connection.source || !connection.target || connection.source === connection.target) return;
    set((s) => ({
      edges: addEdge(
        {
          id: edgeId(connection.source, connection.target),
          source: connection.source,
          target: connection.target,
        },
        s.edges,
      ),
    }));
  },

  addAgentNode: (agent, position) => {
    const id = newNodeId();
    set((s) => {
      const agentCount = s.nodes.filter((n) => n.type === 'agent').length;
      const node = createAgentNode(agent, position ?? freePosition(s.nodes), {
        id,
        color: NODE_COLORS[agentCount % NODE_COLORS.length],
      });
      return { nodes: [...s.nodes, node] };
    });
    return id;
  },

  updateNodeData: (id, patch) =>
    set((s) => ({
      nodes: s.nodes.map((n) =>
        n.id === id ? { ...n, data: { ...n.data, ...patch, lastUpdated: new Date().toISOString() } } : n,
      ),
    })),

  removeNode: (id) => {
    const node = get().nodes.find((n) => n.id === id);
    if (!node || isProtectedType(node.type)) return false;
    set((s) => ({
      nodes: s.nodes.filter((n) => n.id !== id),
      edges: s.edges.filter((e) => e.source !== id && e.target !== id),
      selectedNodeId: s.selectedNodeId === id ? null : s.selectedNodeId,
    }));
    return true;
  },

  removeEdge: (id) =>
    set((s) => ({
      edges: s.edges.filter((e) => e.id !== id),
      selectedEdgeId: s.selectedEdgeId === id ? null : s.selectedEdgeId,
    })),

  selectNode: (id) => set({ selectedNodeId: id, selectedEdgeId: null, ...(id ? { tab: 'properties' } : {}) }),
  selectEdge: (id) => set({ selectedEdgeId: id, selectedNodeId: null, ...(id ? { tab: 'properties' } : {}) }),
  clearSelection: () => set(emptySelection),
}));

/** The parts of the state a save, validation or export needs. */
export function builderSnapshot(state: BuilderState = useBuilderStore.getState()): BuilderSnapshot {
  return { settings: state.settings, nodes: state.nodes, edges: state.edges };
}
