// The Delay node on the canvas: how long it waits ('Waits 2 h'), or until when ('Waits until <expr>').
import type { NodeProps } from '@xyflow/react';
import { Hourglass } from 'lucide-react';
import { memo } from 'react';

import type { BuilderNode } from '../types';
import { delayDraftOf, delayModeOf } from './delay-data';
import { lazyPanel } from './lazy-panel';
import { shortDuration } from './duration';
import { KindCard } from './kind-card';
import type { BuilderNodeKind } from './types';

const ACCENT = '#64748b';

function DelayNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const draft = delayDraftOf(data);
  const until = delayModeOf(draft) === 'until';
  return (
    <KindCard
      id={id}
      kind="delay"
      label={data.label}
      Icon={Hourglass}
      accent={ACCENT}
      selected={selected}
      className="w-56"
    >
      <div
        className="truncate border-t px-3 py-1.5 text-xs text-muted-foreground"
        data-testid="delay-summary"
      >
        {until ? (
          <>
            Waits until <span className="font-mono text-foreground">{draft.until || '…'}</span>
          </>
        ) : draft.seconds ? (
          `Waits ${shortDuration(draft.seconds)}`
        ) : (
          'No duration yet'
        )}
      </div>
    </KindCard>
  );
}

export const delayKind: BuilderNodeKind<'delay'> = {
  kind: 'delay',
  Node: memo(DelayNodeComponent),
  Icon: Hourglass,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./delay-panel'),
    (m) => m.DelayPanelSettings,
  ),
};
