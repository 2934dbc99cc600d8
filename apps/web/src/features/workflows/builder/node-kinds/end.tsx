// The End node on the canvas: where the run finishes; only a target handle.
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { Flag } from 'lucide-react';
import { memo } from 'react';

import { cn } from '@/lib/utils';

import type { BuilderNode } from '../types';
import { handleClass } from './handle';
import type { BuilderNodeKind } from './types';

function EndNodeComponent({ id, data, selected }: NodeProps<BuilderNode>) {
  return (
    <div
      data-testid={`node-${id}`}
      className={cn(
        'flex min-w-32 items-center gap-2.5 rounded-full border-2 border-rose-500/70 bg-card py-2 pr-5 pl-2 shadow-sm transition-shadow',
        selected && 'ring-2 ring-rose-500/40 ring-offset-2 ring-offset-background',
      )}
    >
      <Handle type="target" position={Position.Left} className={handleClass} />
      <span className="grid size-8 place-items-center rounded-full bg-rose-500 text-white">
        <Flag className="size-4" aria-hidden="true" />
      </span>
      <span className="text-sm font-semibold">{data.label || 'End'}</span>
    </div>
  );
}

export const endKind: BuilderNodeKind<'end'> = {
  kind: 'end',
  Node: memo(EndNodeComponent),
  Icon: Flag,
  accent: '#f43f5e',
  miniMapColor: () => '#f43f5e',
};
