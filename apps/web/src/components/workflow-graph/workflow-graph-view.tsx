// A read-only picture of a workflow definition (a workflow, one of its versions or a template): the builder's
// nodes and edges, fitted to the box, pannable and zoomable but never editable, with each step's
// status in a run when given, the branches conditions took and the paths the run went along. Its own ReactFlowProvider keeps it apart from a builder canvas that
// may be on the same page.
import '@xyflow/react/dist/style.css';

import type { WorkflowEdge, WorkflowNode } from '@crewline/contracts';
import {
  Background,
  BackgroundVariant,
  Controls,
  MarkerType,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  type DefaultEdgeOptions,
  type Edge,
} from '@xyflow/react';
import { useEffect, useMemo, type CSSProperties } from 'react';

import { useTheme } from '@/app/theme';
import type { EdgePathMark } from '@/lib/runs/run-paths';
import type { ItemProgress } from '@/lib/runs/run-state';
import { cn } from '@/lib/utils';

import { graphNodeTypes } from './graph-nodes';
import {
  GRAPH_NODE_STATUSES,
  GRAPH_NODE_STATUS_LABELS,
  toGraphEdges,
  toGraphNodes,
  type GraphAgent,
  type GraphNode,
  type GraphNodeStatus,
} from './graph-elements';

export interface WorkflowGraphViewProps {
  nodes: readonly WorkflowNode[];
  edges: readonly WorkflowEdge[];
  /** Names agent nodes whose data lacks a name (older workflows). */
  agents?: readonly GraphAgent[];
  /** Each agent node's status in a run, by node id; nodes left out show no status. */
  nodeStatus?: Readonly<Record<string, GraphNodeStatus>>;
  /** Each condition's branch taken in a run (a branch id, or `else`), by node id. */
  branchTaken?: Readonly<Record<string, string>>;
  /** Each map's items done and each loop's pass in a run, by node id. */
  progress?: Readonly<Record<string, ItemProgress>>;
  /** Whether a run went along each edge, by edge id; edges left out are drawn plain. */
  edgeMarks?: Readonly<Record<string, EdgePathMark>>;
  /** Give it a height (e.g. h-80): React Flow fills its box. */
  className?: string;
}

const defaultEdgeOptions: DefaultEdgeOptions = {
  type: 'smoothstep',
  markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18, color: '#94a3b8' },
  style: { strokeWidth: 2 },
};
const fitViewOptions = { padding: 0.15, maxZoom: 1 };
const proOptions = { hideAttribution: true };
const flowStyle = { '--xy-edge-stroke': '#94a3b8' } as CSSProperties;

// A path the run took is drawn strong; one it did not take fades behind it, dashed.
const TAKEN_COLOR = '#10b981';
const PATH_LOOK: Record<EdgePathMark, Pick<Edge, 'style' | 'markerEnd' | 'zIndex'>> = {
  taken: {
    style: { stroke: TAKEN_COLOR, strokeWidth: 2.5 },
    markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: TAKEN_COLOR },
    zIndex: 1,
  },
  'not-taken': {
    style: { strokeWidth: 1.5, strokeDasharray: '5 5', opacity: 0.4 },
    markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18, color: '#94a3b880' },
  },
};

const LEGEND_DOT: Record<GraphNodeStatus, string> = {
  pending: 'bg-muted-foreground/50',
  running: 'bg-blue-500',
  waiting: 'border-2 border-violet-500 bg-transparent',
  completed: 'bg-emerald-500',
  failed: 'bg-red-500',
  reused: 'bg-violet-500',
  skipped: 'border border-dashed border-muted-foreground/60 bg-transparent',
};

/** The statuses present in the graph, in a fixed order, so the legend explains only what is shown. */
function StatusLegend({ statuses }: { statuses: readonly GraphNodeStatus[] }) {
  if (statuses.length === 0) return null;
  return (
    <ul
      aria-label="Step statuses"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border bg-card/95 px-2 py-1 text-[11px] text-muted-foreground shadow-sm"
    >
      {statuses.map((status) => (
        <li key={status} className="flex items-center gap-1">
          <span className={cn('size-2 rounded-full', LEGEND_DOT[status])} aria-hidden="true" />
          {GRAPH_NODE_STATUS_LABELS[status]}
        </li>
      ))}
    </ul>
  );
}

/**
 * Fits the graph again when its box changes size (a phone turned, a sheet resized, a dialog that
 * grew while opening): `fitView` alone fits only once, to the first size.
 */
function FitOnResize() {
  const { fitView } = useReactFlow();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  useEffect(() => {
    if (width > 0 && height > 0) void fitView(fitViewOptions);
  }, [fitView, width, height]);
  return null;
}

export function WorkflowGraphView({
  nodes,
  edges,
  agents,
  nodeStatus,
  branchTaken,
  progress,
  edgeMarks,
  className,
}: WorkflowGraphViewProps) {
  const { resolvedTheme } = useTheme();
  const graphNodes = useMemo<GraphNode[]>(
    () => toGraphNodes(nodes, agents, nodeStatus, branchTaken, progress),
    [nodes, agents, nodeStatus, branchTaken, progress],
  );
  const graphEdges = useMemo(
    () =>
      toGraphEdges(edges, nodes, edgeMarks).map((edge) => {
        const mark = edgeMarks?.[edge.id];
        return mark ? { ...edge, ...PATH_LOOK[mark] } : edge;
      }),
    [edges, nodes, edgeMarks],
  );
  const shownStatuses = useMemo(
    () => GRAPH_NODE_STATUSES.filter((status) => graphNodes.some((node) => node.data.status === status)),
    [graphNodes],
  );

  return (
    <div
      data-testid="workflow-graph-view"
      className={cn('h-80 w-full overflow-hidden rounded-md border', className)}
    >
      <ReactFlowProvider>
        <ReactFlow<GraphNode>
          nodes={graphNodes}
          edges={graphEdges}
          nodeTypes={graphNodeTypes}
          defaultEdgeOptions={defaultEdgeOptions}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          // The wheel scrolls the dialog or sheet around the graph; zoom is on the controls and pinch.
          zoomOnScroll={false}
          preventScrolling={false}
          zoomOnDoubleClick={false}
          minZoom={0.2}
          maxZoom={2}
          fitView
          fitViewOptions={fitViewOptions}
          colorMode={resolvedTheme === 'dark' ? 'dark' : 'light'}
          proOptions={proOptions}
          style={flowStyle}
          className="bg-muted/20"
        >
          <Background variant={BackgroundVariant.Dots} gap={15} size={1.2} />
          <FitOnResize />
          <Controls position="bottom-left" showInteractive={false} fitViewOptions={fitViewOptions} />
          <Panel position="top-left">
            <StatusLegend statuses={shownStatuses} />
          </Panel>
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}
