// The builder's editor state in one zustand store: nodes, edges, workflow settings, selection and the
// open tab, plus the undo/redo history and the in-app clipboard. Components subscribe with narrow selectors so typing in a field does not re-render the
// canvas, and dragging a node does not re-render the panels.
import type { Workflow } from '@crewline/contracts';
import type { ValidationResult } from '@crewline/engine';
import {
  addEdge,
  applyEdgeChanges,
  applyNodeChanges,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import { create } from 'zustand';

import { copySelection, pasteClipboard, type Clipboard } from './canvas/clipboard';
import { snapshotDiffers } from './unsaved-changes';
import { EMPTY_HISTORY, record, redo, undo, type UndoHistory } from './canvas/undo-history';

import type {
  BuilderEdge,
  BuilderNode,
  BuilderNodeData,
  SidebarTab,
  TriggerConfig,
  WorkflowSettings,
} from './types';
import {
  type AgentLike,
  createAgentNode,
  createKindNode,
  defaultNodes,
  edgeId,
  freePosition,
  isProtectedType,
  NODE_COLORS,
  type PaletteKind,
  sourceHandlesOf,
  toBuilderEdge,
  toBuilderNode,
} from './builder-nodes';
import type { EvaluationFailed } from '../activation-answers';
import type { GateDraft } from './activation-gate';
import type { BudgetDraft } from './workflow-budget';
import { type BuilderSnapshot, DEFAULT_SETTINGS, settingsFromWorkflow } from './workflow-save';

type WorkflowStatus = Workflow['status'];

/**
 * An activation behind the activation gate (docs/product-rules.md, Evaluations): its evaluation
 * running (`minPassRate` is the gate in force; `retried` once Activate was sent again after it
 * ended), or the server's refusal with the failed items.
 */
export type GateFlow =
  | { step: 'running'; evalRunId: string; minPassRate: number | null; retried: boolean }
  | { step: 'refused'; refusal: EvaluationFailed };

/** Ctrl+S's progress beside the title: saving, saved, or nothing to say. */
type SaveIndicator = 'saving' | 'saved' | null;

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
  history: UndoHistory;
  clipboard: Clipboard | null;
  /** Pastes of the current clipboard so far: each lands one offset further. */
  pasteCount: number;
  /** What the server holds (or the blank new workflow): the unsaved-changes check compares with it. */
  baseline: BuilderSnapshot | null;
  /** The keyboard shortcut sheet is open. */
  shortcutsOpen: boolean;
  /** Kept in the store so it survives the move of a new workflow to its edit URL. */
  saveIndicator: SaveIndicator;
  /** The Execute dialog is open; in the store for the same reason (Activate and run on a new workflow). */
  runOpen: boolean;
  /**
   * The last Validate (or blocked save): the panels show the messages naming their node, each
   * expression field the one about its expression. Null before any, and after a load.
   */
  validation: ValidationResult | null;
  /** The activation gate's dialogs: an evaluation followed, or a refusal; null when neither shows. */
  gateFlow: GateFlow | null;

  startNew: () => void;
  loadWorkflow: (workflow: Workflow) => void;
  setSettings: (
    patch: Partial<Omit<WorkflowSettings, 'triggerConfig' | 'budget' | 'activationGate' | 'otherConfig'>>,
  ) => void;
  setTriggerConfig: (patch: Partial<TriggerConfig>) => void;
  /** Changes the Budget section's fields; keystrokes in one field join one undo step. */
  setBudget: (patch: Partial<BudgetDraft>) => void;
  /** The activation gate's fields (the Evaluations section), one undo step per field as the budget's. */
  setActivationGate: (patch: Partial<GateDraft>) => void;
  setTab: (tab: SidebarTab) => void;
  setVersionNote: (note: string) => void;
  setShortcutsOpen: (open: boolean) => void;
  setSaveIndicator: (indicator: SaveIndicator) => void;
  setRunOpen: (open: boolean) => void;
  setValidation: (validation: ValidationResult | null) => void;
  setGateFlow: (flow: GateFlow | null) => void;
  /** Pause / Resume changed the saved workflow's status only: the canvas and its baseline stay. */
  setExistingStatus: (status: WorkflowStatus) => void;

  onNodesChange: (changes: NodeChange<BuilderNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<BuilderEdge>[]) => void;
  onConnect: (connection: Connection) => void;

  addAgentNode: (agent: AgentLike, position?: { x: number; y: number }) => string;
  /** Adds a condition, transform, merge or note (the palette); its id. */
  addKindNode: (kind: PaletteKind, position?: { x: number; y: number }) => string;
  /**
   * Changes a node's data as one undo step. Keystrokes in one field join one step: `step` names the
   * field (the patch's keys by default), null makes the change a step of its own (add, remove, move
   * a row). Edges leaving from a condition branch that is gone are removed with it.
   */
  updateNodeData: (id: string, patch: Partial<BuilderNodeData>, step?: string | null) => void;
  removeNode: (id: string) => boolean;
  removeEdge: (id: string) => void;
  selectNode: (id: string | null) => void;
  selectEdge: (id: string | null) => void;
  clearSelection: () => void;

  /** Keeps the state before a drag so the whole drag is one undo step. */
  beginDrag: () => void;
  endDrag: () => void;
  /** A drag is under way: its moves belong to the step beginDrag recorded. */
  dragging: boolean;
  undo: () => void;
  redo: () => void;
  copySelection: () => number;
  paste: () => number;
  duplicateSelection: () => number;
  deleteSelection: () => void;
  /** Moves nodes to new positions (Tidy up) as one undo step. */
  applyPositions: (positions: Map<string, { x: number; y: number }>) => void;
  /** After a save: `snapshot` is what was sent; a new workflow becomes the saved one, in place. */
  markSaved: (snapshot: BuilderSnapshot, saved: Pick<Workflow, 'id' | 'status'>, inPlace: boolean) => void;
}

let counter = 0;
function newNodeId(prefix = 'agent'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

const emptySelection = { selectedNodeId: null, selectedEdgeId: null } as const;
const freshSession = {
  history: EMPTY_HISTORY,
  clipboard: null,
  pasteCount: 0,
  saveIndicator: null,
  runOpen: false,
  validation: null,
  gateFlow: null,
} as const;

function withBaseline(state: Partial<BuilderState> & Pick<BuilderState, 'settings' | 'nodes' | 'edges'>) {
  return { ...state, baseline: { settings: state.settings, nodes: state.nodes, edges: state.edges } };
}

/** The state with the current snapshot recorded as an undo step (see canvas/undo-history.ts). */
function withStep(s: BuilderState, key: string | null = null): Pick<BuilderState, 'history'> {
  return { history: record(s.history, builderSnapshot(s), key) };
}

/** Clears a selection that points at a node or edge that is gone. */
function keepSelection(s: BuilderState, nodes: BuilderNode[], edges: BuilderEdge[]) {
  return {
    selectedNodeId:
      s.selectedNodeId && nodes.some((n) => n.id === s.selectedNodeId) ? s.selectedNodeId : null,
    selectedEdgeId:
      s.selectedEdgeId && edges.some((e) => e.id === s.selectedEdgeId) ? s.selectedEdgeId : null,
  };
}

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
  ...freshSession,

  baseline: null,
  shortcutsOpen: false,
  saveIndicator: null,

  startNew: () =>
    set(
      withBaseline({
        sessionKey: 'new',
        workflowId: null,
        existingStatus: null,
        settings: { ...DEFAULT_SETTINGS, triggerConfig: {} },
        nodes: defaultNodes(),
        edges: [],
        ...emptySelection,
        tab: 'agents' as const,
        versionNote: '',
        ...freshSession,
      }),
    ),

  loadWorkflow: (workflow) =>
    set(
      withBaseline({
        sessionKey: `edit:${workflow.id}`,
        workflowId: workflow.id,
        existingStatus: workflow.status,
        settings: settingsFromWorkflow(workflow),
        nodes: (workflow.nodes ?? []).map(toBuilderNode),
        edges: (workflow.edges ?? []).map(toBuilderEdge),
        ...emptySelection,
        tab: 'agents' as const,
        versionNote: '',
        ...freshSession,
      }),
    ),

  setSettings: (patch) =>
    set((s) => ({
      ...withStep(s, `settings:${Object.keys(patch).sort().join(',')}`),
      settings: { ...s.settings, ...patch },
    })),
  setTriggerConfig: (patch) =>
    set((s) => ({
      ...withStep(s, `trigger:${Object.keys(patch).sort().join(',')}`),
      settings: { ...s.settings, triggerConfig: { ...s.settings.triggerConfig, ...patch } },
    })),
  setBudget: (patch) =>
    set((s) => ({
      ...withStep(s, `budget:${Object.keys(patch).sort().join(',')}`),
      settings: { ...s.settings, budget: { ...s.settings.budget, ...patch } },
    })),
  setActivationGate: (patch) =>
    set((s) => ({
      ...withStep(s, `gate:${Object.keys(patch).sort().join(',')}`),
      settings: { ...s.settings, activationGate: { ...s.settings.activationGate, ...patch } },
    })),
  setTab: (tab) => set({ tab }),
  setVersionNote: (versionNote) => set({ versionNote }),
  setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
  setSaveIndicator: (saveIndicator) => set({ saveIndicator }),
  setRunOpen: (runOpen) => set({ runOpen }),
  setValidation: (validation) => set({ validation }),
  setGateFlow: (gateFlow) => set({ gateFlow }),
  setExistingStatus: (existingStatus) => set({ existingStatus }),

  onNodesChange: (changes) => {
    const { nodes } = get();
    const protectedIds = new Set(nodes.filter((n) => isProtectedType(n.type)).map((n) => n.id));
    const allowed = changes.filter((c) => !(c.type === 'remove' && protectedIds.has(c.id)));
    if (allowed.length === 0) return;
    const removed = new Set(allowed.flatMap((c) => (c.type === 'remove' ? [c.id] : [])));
    // Selection, size and drag moves are not steps of their own (a drag is recorded when it starts).
    const structural = allowed.some((c) => c.type === 'remove' || c.type === 'add' || c.type === 'replace');
    // Moves outside a drag (arrow keys on a selected node): a run of them is one step.
    const nudged = !get().dragging && allowed.some((c) => c.type === 'position' && c.position);
    set((s) => {
      const next: Partial<BuilderState> = {
        ...(structural ? withStep(s) : nudged ? withStep(s, 'nudge') : {}),
        nodes: applyNodeChanges(allowed, s.nodes),
      };
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
      const structural = changes.some((c) => c.type !== 'select');
      return {
        ...(structural ? withStep(s) : {}),
        edges: applyEdgeChanges(changes, s.edges),
        ...(s.selectedEdgeId && removed.has(s.selectedEdgeId) ? { selectedEdgeId: null } : {}),
      };
    }),

  onConnect: (connection) => {
    if (!connection.source || !connection.target || connection.source === connection.target) return;
    // A condition's path leaves from a branch's handle (or else): the edge keeps which one.
    const handle = connection.sourceHandle || null;
    set((s) => ({
      ...withStep(s),
      edges: addEdge(
        {
          id: edgeId(connection.source, connection.target, handle),
          source: connection.source,
          target: connection.target,
          ...(handle ? { sourceHandle: handle } : {}),
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
      return { ...withStep(s), nodes: [...s.nodes, node] };
    });
    return id;
  },

  addKindNode: (kind, position) => {
    const id = newNodeId(kind);
    set((s) => {
      const node = createKindNode(kind, position ?? freePosition(s.nodes), { id });
      return { ...withStep(s), nodes: [...s.nodes, node] };
    });
    return id;
  },

  updateNodeData: (id, patch, step) =>
    set((s) => {
      const key = step === null ? null : `node:${id}:${step ?? Object.keys(patch).sort().join(',')}`;
      let changed: BuilderNode | undefined;
      const nodes = s.nodes.map((n) => {
        if (n.id !== id) return n;
        changed = { ...n, data: { ...n.data, ...patch, lastUpdated: new Date().toISOString() } };
        return changed;
      });
      // A path whose handle went away (a removed branch, an approval's timeout path) goes with it.
      const handles =
        changed && (changed.type === 'condition' || changed.type === 'approval')
          ? new Set(sourceHandlesOf(changed))
          : null;
      const edges = handles
        ? s.edges.filter((e) => e.source !== id || !e.sourceHandle || handles.has(e.sourceHandle))
        : s.edges;
      return {
        ...withStep(s, key),
        nodes,
        ...(edges.length !== s.edges.length ? { edges, ...keepSelection(s, nodes, edges) } : {}),
      };
    }),

  removeNode: (id) => {
    const node = get().nodes.find((n) => n.id === id);
    if (!node || isProtectedType(node.type)) return false;
    set((s) => ({
      ...withStep(s),
      nodes: s.nodes.filter((n) => n.id !== id),
      edges: s.edges.filter((e) => e.source !== id && e.target !== id),
      selectedNodeId: s.selectedNodeId === id ? null : s.selectedNodeId,
    }));
    return true;
  },

  removeEdge: (id) =>
    set((s) => ({
      ...withStep(s),
      edges: s.edges.filter((e) => e.id !== id),
      selectedEdgeId: s.selectedEdgeId === id ? null : s.selectedEdgeId,
    })),

  selectNode: (id) => set({ selectedNodeId: id, selectedEdgeId: null, ...(id ? { tab: 'properties' } : {}) }),
  selectEdge: (id) => set({ selectedEdgeId: id, selectedNodeId: null, ...(id ? { tab: 'properties' } : {}) }),
  clearSelection: () => set(emptySelection),

  markSaved: (snapshot, saved, inPlace) =>
    set({
      baseline: snapshot,
      workflowId: saved.id,
      existingStatus: saved.status,
      // Saved in place, the session moves with the user to the workflow's edit URL (undo kept).
      ...(inPlace ? { sessionKey: `edit:${saved.id}` } : {}),
    }),

  dragging: false,
  beginDrag: () => set((s) => ({ ...withStep(s), dragging: true })),
  endDrag: () => set({ dragging: false }),

  undo: () =>
    set((s) => {
      const step = undo(s.history, builderSnapshot(s));
      if (!step) return {};
      const { nodes, edges, settings } = step.snapshot;
      return { nodes, edges, settings, history: step.history, ...keepSelection(s, nodes, edges) };
    }),

  redo: () =>
    set((s) => {
      const step = redo(s.history, builderSnapshot(s));
      if (!step) return {};
      const { nodes, edges, settings } = step.snapshot;
      return { nodes, edges, settings, history: step.history, ...keepSelection(s, nodes, edges) };
    }),

  copySelection: () => {
    const s = get();
    const clipboard = copySelection(withPanelSelection(s.nodes, s.selectedNodeId), s.edges);
    if (!clipboard) return 0;
    set({ clipboard, pasteCount: 0 });
    return clipboard.nodes.length;
  },

  paste: () => {
    const { clipboard, pasteCount } = get();
    if (!clipboard) return 0;
    set((s) => {
      const pasted = pasteClipboard(clipboard, s.nodes, pasteCount + 1, newNodeId);
      return {
        ...withStep(s),
        nodes: [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted.nodes],
        edges: [...s.edges.map((e) => (e.selected ? { ...e, selected: false } : e)), ...pasted.edges],
        pasteCount: pasteCount + 1,
        ...emptySelection,
      };
    });
    return clipboard.nodes.length;
  },

  duplicateSelection: () => {
    const s = get();
    const clipboard = copySelection(withPanelSelection(s.nodes, s.selectedNodeId), s.edges);
    if (!clipboard) return 0;
    set((st) => {
      const pasted = pasteClipboard(clipboard, st.nodes, 1, newNodeId);
      return {
        ...withStep(st),
        nodes: [...st.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...pasted.nodes],
        edges: [...st.edges.map((e) => (e.selected ? { ...e, selected: false } : e)), ...pasted.edges],
        ...emptySelection,
      };
    });
    return clipboard.nodes.length;
  },

  deleteSelection: () => {
    const s = get();
    const nodeIds = new Set(
      withPanelSelection(s.nodes, s.selectedNodeId)
        .filter((n) => n.selected && !isProtectedType(n.type))
        .map((n) => n.id),
    );
    const edgeIds = new Set(s.edges.filter((e) => e.selected || e.id === s.selectedEdgeId).map((e) => e.id));
    if (nodeIds.size === 0 && edgeIds.size === 0) return;
    set((st) => {
      const nodes = st.nodes.filter((n) => !nodeIds.has(n.id));
      const edges = st.edges.filter(
        (e) => !edgeIds.has(e.id) && !nodeIds.has(e.source) && !nodeIds.has(e.target),
      );
      return { ...withStep(st), nodes, edges, ...keepSelection(st, nodes, edges) };
    });
  },

  applyPositions: (positions) =>
    set((s) => {
      if (positions.size === 0) return {};
      return {
        ...withStep(s),
        nodes: s.nodes.map((n) => {
          const position = positions.get(n.id);
          return position ? { ...n, position } : n;
        }),
      };
    }),
}));

/** The canvas selection plus the node open in the Properties panel. */
function withPanelSelection(nodes: BuilderNode[], panelNodeId: string | null): BuilderNode[] {
  if (!panelNodeId) return nodes;
  return nodes.map((n) => (n.id === panelNodeId && !n.selected ? { ...n, selected: true } : n));
}

/** Whether the editor holds changes the last load or save does not have. */
export function isDirty(state: BuilderState = useBuilderStore.getState()): boolean {
  if (!state.baseline) return false;
  const { baseline } = state;
  if (
    baseline.nodes === state.nodes &&
    baseline.edges === state.edges &&
    baseline.settings === state.settings
  ) {
    return false;
  }
  return snapshotDiffers(baseline, builderSnapshot(state));
}

/** The parts of the state a save, validation or export needs. */
export function builderSnapshot(state: BuilderState = useBuilderStore.getState()): BuilderSnapshot {
  return { settings: state.settings, nodes: state.nodes, edges: state.edges };
}
