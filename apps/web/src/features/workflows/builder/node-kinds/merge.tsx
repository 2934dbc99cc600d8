// The Merge node on the canvas (how it joins its paths) and its part of the Properties panel: the mode.
import { mergeModeValues, nodeKinds } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { Merge } from 'lucide-react';
import { memo } from 'react';

import { SelectField } from '../components/fields';
import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import type { BuilderNodeKind, NodePanelProps } from './types';

const ACCENT = '#14b8a6';

type MergeMode = (typeof mergeModeValues)[number];

const MODE_LABELS: Record<MergeMode, string> = {
  all: 'All paths taken',
  first: 'First path to arrive',
};
const MODE_HINTS: Record<MergeMode, string> = {
  all: 'Waits for every incoming path that was taken (a skipped path never blocks it) and passes on all their answers.',
  first: 'Goes on with the first path that arrives.',
};

const modeOf = (data: Record<string, unknown>): MergeMode =>
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

function MergePanelSettings({ node, set }: NodePanelProps) {
  const mode = modeOf(node.data);
  return (
    <SelectField
      label="Mode"
      value={mode}
      options={mergeModeValues}
      labels={MODE_LABELS}
      hint={MODE_HINTS[mode]}
      onChange={(next) => set({ mode: next })}
    />
  );
}

export const mergeKind: BuilderNodeKind<'merge'> = {
  kind: 'merge',
  Node: memo(MergeNodeComponent),
  Icon: Merge,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: MergePanelSettings,
};
