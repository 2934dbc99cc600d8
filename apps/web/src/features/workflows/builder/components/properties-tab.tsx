// Properties tab: the selected node's properties, the selected connection, or a hint.
import { nodeKinds } from '@crewline/contracts';
import { ArrowRight, MousePointerClick, Trash2, Unlink } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';

import { builderNodeKinds } from '../node-kinds';
import { useBuilderStore } from '../store';
import type { BuilderNodeData } from '../types';
import { isProtectedType } from '../builder-nodes';
import { TextField } from './fields';

function NodeProperties({ nodeId }: { nodeId: string }) {
  const node = useBuilderStore((s) => s.nodes.find((n) => n.id === nodeId));
  const updateNodeData = useBuilderStore((s) => s.updateNodeData);
  const removeNode = useBuilderStore((s) => s.removeNode);
  if (!node) return <NothingSelected />;

  const { data } = node;
  const set = (patch: Partial<BuilderNodeData>) => updateNodeData(node.id, patch);
  const kind = builderNodeKinds[node.type ?? 'agent'];

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            {nodeKinds[node.type ?? 'agent'].label} node
          </p>
          <p className="truncate font-mono text-[11px] text-muted-foreground">{node.id}</p>
        </div>
        {!isProtectedType(node.type) && (
          <Button
            variant="ghost"
            size="sm"
            className="text-destructive hover:bg-destructive/10 hover:text-destructive"
            onClick={() => removeNode(node.id)}
          >
            <Trash2 aria-hidden="true" />
            Delete Node
          </Button>
        )}
      </div>
      {kind.PanelSummary && <kind.PanelSummary node={node} set={set} />}
      <TextField label="Label" value={data.label} onChange={(label) => set({ label })} />
      <TextField
        label="Description"
        value={data.description}
        multiline
        placeholder="What this step does"
        onChange={(description) => set({ description })}
      />
      {kind.PanelSettings && <kind.PanelSettings node={node} set={set} />}
      {data.lastUpdated && (
        <p className="text-xs text-muted-foreground">Last updated {formatDateTime(data.lastUpdated)}</p>
      )}
    </div>
  );
}

function EdgeProperties({ edgeId }: { edgeId: string }) {
  const edge = useBuilderStore((s) => s.edges.find((e) => e.id === edgeId));
  const sourceLabel = useBuilderStore((s) => s.nodes.find((n) => n.id === edge?.source)?.data.label);
  const targetLabel = useBuilderStore((s) => s.nodes.find((n) => n.id === edge?.target)?.data.label);
  const removeEdge = useBuilderStore((s) => s.removeEdge);
  if (!edge) return <NothingSelected />;
  return (
    <div className="space-y-4">
      <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Connection</p>
      <div className="flex items-center gap-2 rounded-lg border bg-muted/40 p-3 text-sm">
        <span className="min-w-0 flex-1 truncate font-medium" title={sourceLabel ?? edge.source}>
          {sourceLabel ?? edge.source}
        </span>
        <ArrowRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="min-w-0 flex-1 truncate text-right font-medium" title={targetLabel ?? edge.target}>
          {targetLabel ?? edge.target}
        </span>
      </div>
      <p className="font-mono text-[11px] text-muted-foreground">{edge.id}</p>
      <Button variant="destructive" className="w-full" onClick={() => removeEdge(edge.id)}>
        <Unlink aria-hidden="true" />
        Delete Connection
      </Button>
    </div>
  );
}

function NothingSelected() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
      <MousePointerClick className="size-6" aria-hidden="true" />
      <p className="font-medium text-foreground">Nothing selected</p>
      <p>Select a node on the canvas to edit its properties, or a connection to delete it.</p>
    </div>
  );
}

export function PropertiesTab() {
  const selectedNodeId = useBuilderStore((s) => s.selectedNodeId);
  const selectedEdgeId = useBuilderStore((s) => s.selectedEdgeId);
  if (selectedNodeId) return <NodeProperties key={selectedNodeId} nodeId={selectedNodeId} />;
  if (selectedEdgeId) return <EdgeProperties key={selectedEdgeId} edgeId={selectedEdgeId} />;
  return <NothingSelected />;
}
