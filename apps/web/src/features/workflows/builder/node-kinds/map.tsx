// The Map node on the canvas (the list it goes over, what runs for each item, how many at a time, and
// in a run its items done: `37/100`); its part of the Properties panel is map-panel.tsx.
import { nodeKinds } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { Layers } from 'lucide-react';
import { memo, useMemo } from 'react';

import { ItemProgressLine } from '@/components/workflow-graph/item-progress';
import { itemProgress } from '@/lib/runs/run-state';

import { useNodeItems } from '../run-progress';
import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import { lazyPanel } from './lazy-panel';
import { useRunTargetName } from './run-target-name';
import type { BuilderNodeKind } from './types';

const ACCENT = '#ec4899';

export const mapDataOf = (data: Record<string, unknown>) =>
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

export const mapKind: BuilderNodeKind<'map'> = {
  kind: 'map',
  Node: memo(MapNodeComponent),
  Icon: Layers,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./map-panel'),
    (m) => m.MapPanelSettings,
  ),
};
