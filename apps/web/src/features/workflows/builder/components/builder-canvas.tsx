// The canvas: React Flow bound to the builder store, zoom 0.5–2, 15 px snap grid, dotted background,
// zoom controls, a help box, undo/redo, Tidy up, Fit View and Export, and the live run summary
// (docs/product-rules.md). Keyboard shortcuts are bound by the builder (canvas/use-builder-shortcuts.ts).
import '@xyflow/react/dist/style.css';

import {
  Background,
  BackgroundVariant,
  Controls,
  MarkerType,
  MiniMap,
  Panel,
  ReactFlow,
  useReactFlow,
  type DefaultEdgeOptions,
  type Edge,
  type Node,
} from '@xyflow/react';
import { isNodeKind, type Agent } from '@crewline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Download, Info, Keyboard, Maximize, Network, Redo2, Undo2, X } from 'lucide-react';
import { useCallback, useMemo, useState, type CSSProperties, type DragEvent } from 'react';

import { useTheme } from '@/app/theme';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { downloadJson } from '@/lib/download';
import { queryKeys } from '@/lib/queries/keys';

import { placeNear, unmeasuredSize, type PaletteKind } from '../builder-nodes';
import { AGENT_DRAG_TYPE, PALETTE_KIND_TYPE } from '../canvas/drag-types';
import { loadDagreLayout, tidyPositions } from '../canvas/tidy-up';
import { miniMapColor, nodeTypes } from '../node-kinds';
import { useRunPathMarks } from '../run-progress';
import { builderSnapshot, useBuilderStore } from '../store';
import { MAX_ZOOM, MIN_ZOOM, SNAP_GRID, type BuilderNode } from '../types';

const isPaletteKind = (value: string): value is PaletteKind =>
  isNodeKind(value) && value !== 'start' && value !== 'end' && value !== 'agent';

/**
 * Dropping a palette step or an agent from the sidebar adds it where it is let go (centred on the
 * pointer, moved down off any node it would cover).
 */
function useDropOnCanvas() {
  const { screenToFlowPosition } = useReactFlow();
  const queryClient = useQueryClient();
  const onDragOver = useCallback((event: DragEvent) => {
    const types = event.dataTransfer.types;
    if (!types.includes(PALETTE_KIND_TYPE) && !types.includes(AGENT_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      const kind = event.dataTransfer.getData(PALETTE_KIND_TYPE);
      const agentId = event.dataTransfer.getData(AGENT_DRAG_TYPE);
      if (!kind && !agentId) return;
      event.preventDefault();
      const point = screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const { nodes, addKindNode, addAgentNode } = useBuilderStore.getState();
      if (isPaletteKind(kind)) {
        addKindNode(kind, placeNear(nodes, point, unmeasuredSize({ type: kind })));
        return;
      }
      const agent = queryClient.getQueryData<Agent[]>(queryKeys.agents.all)?.find((a) => a.id === agentId);
      if (agent) addAgentNode(agent, placeNear(nodes, point, unmeasuredSize({ type: 'agent' })));
    },
    [screenToFlowPosition, queryClient],
  );
  return { onDragOver, onDrop };
}

const defaultEdgeOptions: DefaultEdgeOptions = {
  type: 'smoothstep',
  animated: true,
  markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18, color: '#94a3b8' },
  style: { strokeWidth: 2 },
};

const multiSelectKeys = ['Shift', 'Meta', 'Control'];
const connectionLineStyle = { strokeWidth: 2 };
const fitViewOptions = { padding: 0.2, maxZoom: 1 };
const proOptions = { hideAttribution: true };
/** Edge colours readable on both themes; a selected edge takes the brand colour. */
const flowStyle = {
  '--xy-edge-stroke': '#94a3b8',
  '--xy-edge-stroke-selected': 'var(--primary)',
  '--xy-connectionline-stroke': 'var(--primary)',
} as CSSProperties;

/** Phones start with the help box folded so it does not cover the canvas. */
const PHONE_QUERY = '(max-width: 767px)';
const isPhone = () => typeof window !== 'undefined' && window.matchMedia?.(PHONE_QUERY).matches === true;

function HelpBox() {
  const [open, setOpen] = useState(() => !isPhone());
  if (!open) {
    return (
      <Button
        variant="outline"
        size="icon"
        className="size-8 bg-card shadow-sm"
        onClick={() => setOpen(true)}
        aria-label="Show canvas help"
      >
        <Info aria-hidden="true" />
      </Button>
    );
  }
  return (
    <div className="w-64 rounded-lg border bg-card/95 p-3 text-xs text-muted-foreground shadow-sm backdrop-blur">
      <div className="mb-1.5 flex items-center justify-between">
        <span className="flex items-center gap-1.5 font-medium text-foreground">
          <Info className="size-3.5" aria-hidden="true" />
          How to build
        </span>
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded p-0.5 hover:bg-muted hover:text-foreground"
          aria-label="Hide canvas help"
        >
          <X className="size-3.5" aria-hidden="true" />
        </button>
      </div>
      <ul className="list-disc space-y-1 pl-4">
        <li>Click or drag an agent (Agents tab) or a step (Steps tab) to add it to the canvas.</li>
        <li>Drag from a node&apos;s right handle to another node&apos;s left handle to connect them.</li>
        <li>Select a node or connection and press Delete (or Backspace) to remove it. Start and End stay.</li>
        <li>Shift+click or Shift+drag selects several nodes. Press ? for every shortcut.</li>
      </ul>
    </div>
  );
}

function CanvasToolbar() {
  const { fitView } = useReactFlow();
  const canUndo = useBuilderStore((s) => s.history.past.length > 0);
  const canRedo = useBuilderStore((s) => s.history.future.length > 0);
  const undo = useBuilderStore((s) => s.undo);
  const redo = useBuilderStore((s) => s.redo);
  const setShortcutsOpen = useBuilderStore((s) => s.setShortcutsOpen);
  const [tidying, setTidying] = useState(false);
  const onExport = useCallback(async () => {
    const snapshot = builderSnapshot();
    // The export's document is written by workflow-file.ts, loaded with the first export.
    const { exportDocument, exportFileName } = await import('../workflow-file');
    downloadJson(exportFileName(snapshot.settings.name), exportDocument(snapshot));
  }, []);
  const onTidy = useCallback(async () => {
    setTidying(true);
    try {
      const layout = await loadDagreLayout();
      const { nodes, edges, applyPositions } = useBuilderStore.getState();
      applyPositions(tidyPositions(nodes, edges, layout));
      // Let React Flow place the moved nodes before framing them.
      requestAnimationFrame(() => void fitView(fitViewOptions));
    } catch {
      toast({
        variant: 'destructive',
        title: 'Tidy up failed',
        description: 'Reload the page and try again.',
      });
    } finally {
      setTidying(false);
    }
  }, [fitView]);
  return (
    <div className="flex flex-wrap items-center justify-end gap-1 rounded-lg border bg-card/95 p-1 shadow-sm backdrop-blur">
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        onClick={undo}
        disabled={!canUndo}
        aria-label="Undo"
        title="Undo (Ctrl+Z)"
      >
        <Undo2 aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        onClick={redo}
        disabled={!canRedo}
        aria-label="Redo"
        title="Redo (Ctrl+Shift+Z)"
      >
        <Redo2 aria-hidden="true" />
      </Button>
      <Button variant="ghost" size="sm" onClick={() => void onTidy()} disabled={tidying} aria-busy={tidying}>
        <Network aria-hidden="true" />
        <span className="max-sm:sr-only">Tidy up</span>
      </Button>
      <Button variant="ghost" size="sm" onClick={() => void fitView(fitViewOptions)}>
        <Maximize aria-hidden="true" />
        <span className="max-sm:sr-only">Fit View</span>
      </Button>
      <Button variant="ghost" size="sm" onClick={() => void onExport()}>
        <Download aria-hidden="true" />
        <span className="max-sm:sr-only">Export</span>
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        onClick={() => setShortcutsOpen(true)}
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
      >
        <Keyboard aria-hidden="true" />
      </Button>
    </div>
  );
}

export function BuilderCanvas() {
  const nodes = useBuilderStore((s) => s.nodes);
  const storeEdges = useBuilderStore((s) => s.edges);
  // The shown run's paths: taken ones stand out, the others fade (lib/runs/run-paths.ts). A copy for
  // the canvas only: the marks never reach the store, so they are never saved.
  const marks = useRunPathMarks(storeEdges, nodes);
  const edges = useMemo(
    () =>
      Object.keys(marks).length === 0
        ? storeEdges
        : storeEdges.map((e) => (marks[e.id] ? { ...e, className: `run-path-${marks[e.id]}` } : e)),
    [storeEdges, marks],
  );
  const onNodesChange = useBuilderStore((s) => s.onNodesChange);
  const onEdgesChange = useBuilderStore((s) => s.onEdgesChange);
  const onConnect = useBuilderStore((s) => s.onConnect);
  const selectNode = useBuilderStore((s) => s.selectNode);
  const selectEdge = useBuilderStore((s) => s.selectEdge);
  const clearSelection = useBuilderStore((s) => s.clearSelection);
  const beginDrag = useBuilderStore((s) => s.beginDrag);
  const endDrag = useBuilderStore((s) => s.endDrag);
  const { resolvedTheme } = useTheme();
  const { onDragOver, onDrop } = useDropOnCanvas();

  const onNodeClick = useCallback((_: unknown, node: Node) => selectNode(node.id), [selectNode]);
  const onEdgeClick = useCallback((_: unknown, edge: Edge) => selectEdge(edge.id), [selectEdge]);

  return (
    <ReactFlow<BuilderNode>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      onNodeClick={onNodeClick}
      onEdgeClick={onEdgeClick}
      onPaneClick={clearSelection}
      onDragOver={onDragOver}
      onDrop={onDrop}
      onNodeDragStart={beginDrag}
      onSelectionDragStart={beginDrag}
      onNodeDragStop={endDrag}
      onSelectionDragStop={endDrag}
      defaultEdgeOptions={defaultEdgeOptions}
      connectionLineStyle={connectionLineStyle}
      minZoom={MIN_ZOOM}
      maxZoom={MAX_ZOOM}
      snapToGrid
      snapGrid={SNAP_GRID}
      fitView
      fitViewOptions={fitViewOptions}
      // Delete, copy and paste go through the builder's shortcuts so each is one undo step.
      deleteKeyCode={null}
      multiSelectionKeyCode={multiSelectKeys}
      colorMode={resolvedTheme === 'dark' ? 'dark' : 'light'}
      proOptions={proOptions}
      onlyRenderVisibleElements
      style={flowStyle}
      // Tailwind reads `_` in a variant as a space: `\_` keeps React Flow's `__` class names intact.
      className="bg-muted/20 [&_.react-flow\_\_edge.run-path-not-taken]:opacity-35 [&_.react-flow\_\_edge.run-path-taken_.react-flow\_\_edge-path]:!stroke-emerald-500 [&_.react-flow\_\_edge.selected_.react-flow\_\_edge-path]:[stroke-width:3]"
    >
      <Background variant={BackgroundVariant.Dots} gap={15} size={1.2} />
      {/* Zoom only: the toolbar has the Fit View button. */}
      <Controls position="bottom-left" showInteractive={false} showFitView={false} />
      <MiniMap
        position="bottom-right"
        pannable
        zoomable
        nodeColor={miniMapColor}
        className="!rounded-md !border max-md:!hidden"
      />
      <Panel position="top-left">
        <HelpBox />
      </Panel>
      <Panel position="top-right">
        <CanvasToolbar />
      </Panel>
    </ReactFlow>
  );
}
