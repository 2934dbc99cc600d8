// The Guardrail node on the canvas: its checks that are on, each with its action, then its two paths,
// Pass and Fail, each with its own source handle (the edge's sourceHandle).
import { guardrailCheckLabels, guardrailPathValues } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { ShieldCheck } from 'lucide-react';
import { memo } from 'react';

import { GUARDRAIL_PATH_LABELS } from '../builder-nodes';
import type { BuilderNode } from '../types';
import { guardrailDataOf } from './guardrail-data';
import { lazyPanel } from './lazy-panel';
import { KindCard } from './kind-card';
import { PathRow } from './path-row';
import type { BuilderNodeKind } from './types';

const ACCENT = '#0d9488';
/** Checks the card lists before '+ n more'. */
const SHOWN = 3;
const ACTION_WORDS = { block: 'blocks', redact: 'redacts', flag: 'flags' } as const;

function GuardrailNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const on = guardrailDataOf(data).checks.filter((c) => c.enabled);
  return (
    <KindCard
      id={id}
      kind="guardrail"
      label={data.label}
      Icon={ShieldCheck}
      accent={ACCENT}
      selected={selected}
      sourceHandle={false}
      className="w-60"
    >
      <ul className="space-y-0.5 border-t px-3 py-2 text-[11px]">
        {on.length === 0 && <li className="text-muted-foreground italic">No checks on yet</li>}
        {on.slice(0, SHOWN).map((check, i) => (
          <li key={i} className="truncate">
            <span className="font-medium">{guardrailCheckLabels[check.type]}</span>
            <span className="text-muted-foreground"> {ACTION_WORDS[check.action]}</span>
          </li>
        ))}
        {on.length > SHOWN && <li className="text-muted-foreground">+ {on.length - SHOWN} more</li>}
      </ul>
      {guardrailPathValues.map((path) => (
        <PathRow key={path} handle={path} label={GUARDRAIL_PATH_LABELS[path]!} muted={path === 'fail'} />
      ))}
    </KindCard>
  );
}

export const guardrailKind: BuilderNodeKind<'guardrail'> = {
  kind: 'guardrail',
  Node: memo(GuardrailNodeComponent),
  Icon: ShieldCheck,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./guardrail-panel'),
    (m) => m.GuardrailPanelSettings,
  ),
};
