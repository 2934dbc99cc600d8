// The Start node on the canvas: where the run begins; only a source handle.
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { Play } from 'lucide-react';
import { memo } from 'react';

import { cn } from '@/lib/utils';

import type { BuilderNode } from '../types';
import { handleClass } from './handle';
import type { BuilderNodeKind } from './types';

function StartNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  return (
    <div
      data-testid={`node-${id}`}
      className={cn(
        'flex min-w-32 items-center gap-2.5 rounded-full border-2 border-emerald-500/70 bg-card py-2 pr-5 pl-2 shadow-sm transition-shadow',
        selected && 'ring-2 ring-emerald-500/40 ring-offset-2 ring-offset-background',
      )}
    >
      <span className="grid size-8 place-items-center rounded-full bg-emerald-500 text-white">
        <Play className="size-4 fill-current" aria-hidden="true" />
      </span>
      <span className="text-sm font-semibold">{data.label || 'Start'}</span>
      <Handle type="source" position={Position.Right} className={handleClass} />
    </div>
  );
}

export const startKind: BuilderNodeKind<'start'> = {
  kind: 'start',
  Node: memo(StartNodeComponent),
  Icon: Play,
  accent: '#10b981',
  miniMapColor: () => '#10b981',
};
