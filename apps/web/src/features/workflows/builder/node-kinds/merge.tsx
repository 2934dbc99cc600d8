// The Merge node on the canvas (how it joins its paths); its part of the Properties panel, the mode,
// is merge-panel.tsx.
import { type mergeModeValues, nodeKinds } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { Merge } from 'lucide-react';
import { memo } from 'react';

import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import { lazyPanel } from './lazy-panel';
import type { BuilderNodeKind } from './types';

const ACCENT = '#14b8a6';

export type MergeMode = (typeof mergeModeValues)[number];

export const MODE_LABELS: Record<MergeMode, string> = {
  all: 'All paths taken',
  first: 'First path to arrive',
};
export const modeOf = (data: Record<string, unknown>): MergeMode =>
  nodeKinds.merge.data.safeParse(data).data?.mode ?? 'all';

function MergeNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const mode = modeOf(data);
  return (
    <KindCard
      id={id}
      kind="merge"
      label={data.label}
      Icon={Merge}
      accent={ACCENT}
      selected={selected}
      className="w-52"
    >
      <div className="border-t px-3 py-1.5 text-xs text-muted-foreground">{MODE_LABELS[mode]}</div>
    </KindCard>
  );
}

export const mergeKind: BuilderNodeKind<'merge'> = {
  kind: 'merge',
  Node: memo(MergeNodeComponent),
  Icon: Merge,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./merge-panel'),
    (m) => m.MergePanelSettings,
  ),
};
