// The Transform node on the canvas: the values it sets into `vars`, `name = value`, the first few.
import type { NodeProps } from '@xyflow/react';
import { Variable } from 'lucide-react';
import { memo } from 'react';

import { assignmentsOf } from '../builder-nodes';
import type { BuilderNode } from '../types';
import { KindCard } from './kind-card';
import { lazyPanel } from './lazy-panel';
import type { BuilderNodeKind } from './types';

const ACCENT = '#8b5cf6';
/** Rows the card shows before '+ n more'. */
const SHOWN = 3;

function TransformNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const assignments = assignmentsOf(data);
  return (
    <KindCard
      id={id}
      kind="transform"
      label={data.label}
      Icon={Variable}
      accent={ACCENT}
      selected={selected}
      className="w-60"
    >
      <ul className="space-y-0.5 border-t px-3 py-2 font-mono text-[11px]">
        {assignments.length === 0 && (
          <li className="font-sans text-muted-foreground italic">Sets nothing yet</li>
        )}
        {assignments.slice(0, SHOWN).map((a, i) => (
          <li key={i} className="truncate" title={`vars.${a.name} = ${a.value}`}>
            <span className="font-semibold">{a.name || '…'}</span>
            <span className="text-muted-foreground"> = {a.value || '…'}</span>
          </li>
        ))}
        {assignments.length > SHOWN && (
          <li className="font-sans text-muted-foreground">+ {assignments.length - SHOWN} more</li>
        )}
      </ul>
    </KindCard>
  );
}

export const transformKind: BuilderNodeKind<'transform'> = {
  kind: 'transform',
  Node: memo(TransformNodeComponent),
  Icon: Variable,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./transform-panel'),
    (m) => m.TransformPanelSettings,
  ),
};
