// Properties tab: the selected node's properties, the selected connection, or a hint.
import { nodeKinds } from '@crewline/contracts';
import { ArrowRight, MousePointerClick, Trash2, Unlink, XCircle } from 'lucide-react';
import { Suspense } from 'react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';

import { builderNodeKinds } from '../node-kinds';
import { useBuilderStore } from '../store';
import type { BuilderNodeData } from '../types';
import { handleLabel, isProtectedType } from '../builder-nodes';
import { nodeDisplayName, nodeErrors } from '../node-messages';
import { TextField } from './fields';
import { TestNodeButton } from './test-node-dialog';

const NO_MESSAGES: readonly string[] = [];

/** The last validation's messages about the node as a whole (its expressions' show under their fields). */
function NodeErrors({ name }: { name: string }) {
  const messages = useBuilderStore((s) => s.validation?.errors ?? NO_MESSAGES);
  const errors = nodeErrors(messages, name);
  if (errors.length === 0) return null;
  return (
    <ul
      className="space-y-1 rounded-lg border border-destructive/40 bg-destructive/5 p-2.5 text-xs"
      aria-label="Problems"
    >
      {errors.map((error) => (
        <li key={error} className="flex gap-1.5 text-destructive">
          <XCircle className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          {error}
        </li>
      ))}
    </ul>
  );
}

function NodeProperties({ nodeId }: { nodeId: string }) {
  const node = useBuilderStore((s) => s.nodes.find((n) => n.id === nodeId));
  const updateNodeData = useBuilderStore((s) => s.updateNodeData);
  const removeNode = useBuilderStore((s) => s.removeNode);
  if (!node) return <NothingSelected />;

  const { data } = node;
  const set = (patch: Partial<BuilderNodeData>, step?: string | null) => updateNodeData(node.id, patch, step);
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
      <NodeErrors name={nodeDisplayName(node)} />
      {/* A kind's parts load when a node of that kind is first selected (node-kinds/lazy-panel.ts). */}
      {kind.PanelSummary && (
        <Suspense fallback={null}>
          <kind.PanelSummary node={node} set={set} />
        </Suspense>
      )}
      {!kind.ownFieldsOnly && (
        <>
          <TextField label="Label" value={data.label} onChange={(label) => set({ label })} />
          <TextField
            label="Description"
            value={data.description}
            multiline
            placeholder="What this step does"
            onChange={(description) => set({ description })}
          />
        </>
      )}
      {kind.PanelSettings && (
        <Suspense
          fallback={
            <div className="flex justify-center py-4" data-testid="builder-part-loading">
              <Spinner className="size-5 text-muted-foreground" />
            </div>
          }
        >
          <kind.PanelSettings node={node} set={set} />
        </Suspense>
      )}
      <TestNodeButton nodeId={node.id} />
      {data.lastUpdated && (
        <p className="text-xs text-muted-foreground">Last updated {formatDateTime(data.lastUpdated)}</p>
      )}
    </div>
  );
}

function EdgeProperties({ edgeId }: { edgeId: string }) {
  const edge = useBuilderStore((s) => s.edges.find((e) => e.id === edgeId));
  const source = useBuilderStore((s) => s.nodes.find((n) => n.id === edge?.source));
  const sourceLabel = source?.data.label;
  // From a condition: the branch the path leaves from.
  const branch = handleLabel(source, edge?.sourceHandle);
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
      {branch && (
        <p className="text-sm">
          <span className="text-muted-foreground">Path: </span>
          <span className="font-medium">{branch}</span>
        </p>
      )}
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
