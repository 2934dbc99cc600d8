// The Loop node on the canvas (what runs, until when, at most how many times, and in a run its pass)
// and its part of the Properties panel (loop-panel.tsx).
import { nodeKinds } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { Repeat } from 'lucide-react';
import { memo, useMemo } from 'react';

import { ItemProgressLine } from '@/components/workflow-graph/item-progress';
import { itemProgress } from '@/lib/runs/run-state';

import { useNodeItems } from '../run-progress';
import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import { lazyPanel } from './lazy-panel';
import { useRunTargetName } from './run-target-name';
import type { BuilderNodeKind } from './types';

const ACCENT = '#f97316';

export const loopDataOf = (data: Record<string, unknown>) =>
  nodeKinds.loop.data.safeParse(data).data ?? { run: undefined, until: '', maxIterations: 3 };

/** The loop's pass in the run shown (none before its first pass started). */
function LoopRunProgress({ id }: { id: string }) {
  const items = useNodeItems(id);
  const progress = useMemo(() => (items ? itemProgress(items) : null), [items]);
  return progress?.pass ? <ItemProgressLine kind="loop" progress={progress} /> : null;
}

function LoopNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const loop = loopDataOf(data);
  const target = useRunTargetName(loop.run);
  return (
    <KindCard
      id={id}
      kind="loop"
      label={data.label}
      Icon={Repeat}
      accent={ACCENT}
      selected={selected}
      className="w-60"
    >
      <div className="space-y-0.5 border-t px-3 py-2 text-[11px]">
        <div className="truncate text-muted-foreground">
          {loop.run ? (target ?? ('agentId' in loop.run ? 'Agent' : 'Workflow')) : 'Nothing to run yet'} · at
          most {loop.maxIterations}×
        </div>
        <div className="truncate">
          <span className="text-muted-foreground">Until </span>
          <span className="font-mono">{loop.until || '…'}</span>
        </div>
      </div>
      <LoopRunProgress id={id} />
    </KindCard>
  );
}

export const loopKind: BuilderNodeKind<'loop'> = {
  kind: 'loop',
  Node: memo(LoopNodeComponent),
  Icon: Repeat,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./loop-panel'),
    (m) => m.LoopPanelSettings,
  ),
};
