// A read-only picture of a workflow definition (a workflow, one of its versions or a template): the builder's
// nodes and edges, fitted to the box, pannable and zoomable but never editable, with each agent's
// status in a run when given. Its own ReactFlowProvider keeps it apart from a builder canvas that
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
} from '@xyflow/react';
import { useEffect, useMemo, type CSSProperties } from 'react';

import { useTheme } from '@/app/theme';
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

const LEGEND_DOT: Record<GraphNodeStatus, string> = {
  pending: 'bg-muted-foreground/50',
  running: 'bg-blue-500',
  completed: 'bg-emerald-500',
  failed: 'bg-red-500',
  reused: 'bg-violet-500',
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

export function WorkflowGraphView({ nodes, edges, agents, nodeStatus, className }: WorkflowGraphViewProps) {
  const { resolvedTheme } = useTheme();
  const graphNodes = useMemo<GraphNode[]>(
    () => toGraphNodes(nodes, agents, nodeStatus),
    [nodes, agents, nodeStatus],
  );
  const graphEdges = useMemo(() => toGraphEdges(edges, nodes), [edges, nodes]);
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
