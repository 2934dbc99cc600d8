// The Map node on the canvas (the list it goes over, what runs for each item, how many at a time, and
// in a run its items done: `37/100`) and its part of the Properties panel.
import { MAP_CONCURRENCY, nodeKinds, onItemErrorValues } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { Layers } from 'lucide-react';
import { memo, useId, useMemo } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ItemProgressLine } from '@/components/workflow-graph/item-progress';
import { itemProgress } from '@/lib/runs/run-state';

import { ExpressionField } from '../components/expression-field';
import { SelectField } from '../components/fields';
import { nodeDisplayName } from '../node-messages';
import { useNodeItems } from '../run-progress';
import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import { RunTargetFields, useRunTargetName } from './run-target';
import type { BuilderNodeKind, NodePanelProps } from './types';

const ACCENT = '#ec4899';

type OnItemError = (typeof onItemErrorValues)[number];
const ON_ITEM_ERROR_LABELS: Record<OnItemError, string> = {
  fail: 'Stop the map',
  continue: 'Keep the error and go on',
};

const mapDataOf = (data: Record<string, unknown>) =>
  nodeKinds.map.data.safeParse(data).data ?? {
    items: '',
    run: undefined,
    concurrency: 1,
    onItemError: 'fail' as const,
  };

/** The map's items done in the run shown (none before it started them). */
function MapRunProgress({ id }: { id: string }) {
  const items = useNodeItems(id);
  const progress = useMemo(() => (items ? itemProgress(items) : null), [items]);
  return progress ? <ItemProgressLine kind="map" progress={progress} /> : null;
}

function MapNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const map = mapDataOf(data);
  const target = useRunTargetName(map.run);
  return (
    <KindCard
      id={id}
      kind="map"
      label={data.label}
      Icon={Layers}
      accent={ACCENT}
      selected={selected}
      className="w-60"
    >
      <div className="space-y-0.5 border-t px-3 py-2 text-[11px]">
        <div className="truncate">
          <span className="text-muted-foreground">For each </span>
          <span className="font-mono">{map.items || '…'}</span>
        </div>
        <div className="truncate text-muted-foreground">
          {map.run ? (target ?? ('agentId' in map.run ? 'Agent' : 'Workflow')) : 'Nothing to run yet'} ·{' '}
          {map.concurrency} at a time
        </div>
      </div>
      <MapRunProgress id={id} />
    </KindCard>
  );
}

function MapPanelSettings({ node, set }: NodePanelProps) {
  const concurrencyId = useId();
  const map = mapDataOf(node.data);
  const nodeName = nodeDisplayName(node);
  const inRange = map.concurrency >= MAP_CONCURRENCY.min && map.concurrency <= MAP_CONCURRENCY.max;
  return (
    <>
      <ExpressionField
        label="Items"
        value={map.items}
        quotedAs={map.items.trim() || 'items'}
        nodeId={node.id}
        nodeName={nodeName}
        syntax="expression"
        placeholder="nodes.search.data.leads"
        hint="A list; the map runs once for each of its items (at most 1,000)."
        onChange={(items) => set({ items })}
      />
      <RunTargetFields
        run={map.run}
        nodeId={node.id}
        nodeName={nodeName}
        onChange={(run, step) => set({ run }, step)}
      />
      <div className="space-y-1.5">
        <Label htmlFor={concurrencyId}>At a time</Label>
        <Input
          id={concurrencyId}
          type="number"
          min={MAP_CONCURRENCY.min}
          max={MAP_CONCURRENCY.max}
          step={1}
          value={map.concurrency}
          aria-invalid={!inRange || undefined}
          onChange={(e) => {
            const value = e.target.valueAsNumber;
            if (Number.isInteger(value)) set({ concurrency: value });
          }}
        />
        <p className={inRange ? 'text-xs text-muted-foreground' : 'text-xs text-destructive'}>
          From {MAP_CONCURRENCY.min} to {MAP_CONCURRENCY.max} items run at the same time.
        </p>
      </div>
      <SelectField
        label="When an item fails"
        value={map.onItemError}
        options={onItemErrorValues}
        labels={ON_ITEM_ERROR_LABELS}
        onChange={(onItemError) => set({ onItemError })}
      />
    </>
  );
}

export const mapKind: BuilderNodeKind<'map'> = {
  kind: 'map',
  Node: memo(MapNodeComponent),
  Icon: Layers,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: MapPanelSettings,
};
