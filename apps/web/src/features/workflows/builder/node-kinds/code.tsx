// The Code node on the canvas: the first lines of its JavaScript (run in a WebAssembly sandbox, no model).
import type { NodeProps } from '@xyflow/react';
import { CodeXml } from 'lucide-react';
import { memo } from 'react';

import type { BuilderNode } from '../types';
import { codeDataOf } from './code-data';
import { lazyPanel } from './lazy-panel';
import { KindCard } from './kind-card';
import type { BuilderNodeKind } from './types';

const ACCENT = '#65a30d';
/** Lines the card shows before '…'. */
const SHOWN = 3;

function CodeNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const lines = codeDataOf(data)
    .source.split('\n')
    .filter((line) => line.trim() !== '');
  return (
    <KindCard
      id={id}
      kind="code"
      label={data.label}
      Icon={CodeXml}
      accent={ACCENT}
      selected={selected}
      className="w-60"
    >
      <div className="border-t px-3 py-2 text-[11px]" data-testid="code-summary">
        {lines.length === 0 ? (
          <span className="text-muted-foreground italic">No code yet</span>
        ) : (
          <pre className="font-mono whitespace-pre text-muted-foreground">
            {lines.slice(0, SHOWN).map((line, index) => (
              <span key={index} className="block truncate" title={line}>
                {line}
              </span>
            ))}
            {lines.length > SHOWN && <span className="block font-sans">…</span>}
          </pre>
        )}
      </div>
    </KindCard>
  );
}

export const codeKind: BuilderNodeKind<'code'> = {
  kind: 'code',
  Node: memo(CodeNodeComponent),
  Icon: CodeXml,
  accent: ACCENT,
  miniMapColor: () => ACCENT,
  PanelSettings: lazyPanel(
    () => import('./code-panel'),
    (m) => m.CodePanelSettings,
  ),
};
