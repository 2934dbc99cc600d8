// The Condition node on the canvas: one row per branch, in order, each with its own source handle
// (labelled with the branch), then the else row and its handle; a path connected from a handle leaves
// from that branch (the edge's sourceHandle).
import { ELSE_BRANCH } from '@crewline/contracts';
import { useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { Split } from 'lucide-react';
import { memo, useEffect } from 'react';

import { branchesOf } from '../builder-nodes';
import type { BuilderNode } from '../types';
import { lazyPanel } from './lazy-panel';
import { KindCard } from './kind-card';
import { PathRow } from './path-row';
import type { BuilderNodeKind } from './types';

const ACCENT = '#f59e0b';

function ConditionNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const branches = branchesOf(data);
  const updateNodeInternals = useUpdateNodeInternals();
  // Handles come and go with the branches: React Flow measures them again (an edge follows its handle).
  const handles = branches.map((b) => b.id).join('\n');
  useEffect(() => updateNodeInternals(id), [id, handles, updateNodeInternals]);
  return (
    <KindCard
      id={id}
      kind="condition"
      label={data.label}
      Icon={Split}
      accent={ACCENT}
      selected={selected}
      sourceHandle={false}
      className="w-60"
    >
      {branches.map((branch, index) => (
        <PathRow
          key={branch.id}
          handle={branch.id}
          label={branch.label || `Branch ${index + 1}`}
          detail={branch.when || 'No expression yet'}
        />
      ))}
      <PathRow handle={ELSE_BRANCH} label="Else" muted />
    </KindCard>
  );
}

export const conditionKind: BuilderNodeKind<'condition'> = {
  kind: 'condition',
  Node: memo(ConditionNodeComponent),
  Icon: Split,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./condition-panel'),
    (m) => m.ConditionPanelSettings,
  ),
};
