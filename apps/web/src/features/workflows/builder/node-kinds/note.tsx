// The Note node: text on the canvas for the people reading the workflow. No handles (a run never
// reaches it); its panel is its text only (note-panel.tsx).
import { nodeKinds } from '@crewline/contracts';
import type { NodeProps } from '@xyflow/react';
import { StickyNote } from 'lucide-react';
import { memo } from 'react';

import { cn } from '@/lib/utils';

import type { BuilderNode } from '../types';
import { lazyPanel } from './lazy-panel';
import type { BuilderNodeKind } from './types';

const ACCENT = '#eab308';

export const textOf = (data: Record<string, unknown>): string =>
  nodeKinds.note.data.safeParse(data).data?.text ?? '';

function NoteNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  const text = textOf(data);
  return (
    <div
      data-testid={`node-${id}`}
      className={cn(
        'w-60 rounded-md border border-yellow-400/60 bg-yellow-50 px-3 py-2.5 text-sm text-yellow-950 shadow-sm dark:border-yellow-500/40 dark:bg-yellow-950/60 dark:text-yellow-50',
        selected && 'ring-2 ring-yellow-500/50',
      )}
    >
      <div className="mb-1 flex items-center gap-1.5 text-[11px] font-semibold tracking-wide text-yellow-800 uppercase dark:text-yellow-300">
        <StickyNote className="size-3.5" aria-hidden="true" />
        Note
      </div>
      {text ? (
        <p className="max-h-60 overflow-hidden break-words whitespace-pre-wrap">{text}</p>
      ) : (
        <p className="text-yellow-800/70 italic dark:text-yellow-200/70">
          Empty note: write it in Properties.
        </p>
      )}
    </div>
  );
}

export const noteKind: BuilderNodeKind<'note'> = {
  kind: 'note',
  Node: memo(NoteNodeComponent),
  Icon: StickyNote,
  accent: ACCENT,
  miniMapColor: () => '#fde047',
  PanelSettings: lazyPanel(
    () => import('./note-panel'),
    (m) => m.NotePanelSettings,
  ),
  ownFieldsOnly: true,
};
