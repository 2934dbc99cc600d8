// One path out of a node that has several (a condition's branches, an approval's outcomes): its
// label, an optional detail line, and its own source handle on the right (the edge's sourceHandle).
import { Handle, Position } from '@xyflow/react';

import { cn } from '@/lib/utils';

import { handleClass } from './handle';

export function PathRow({
  handle,
  label,
  detail,
  muted,
}: {
  handle: string;
  label: string;
  detail?: string;
  muted?: boolean;
}) {
  return (
    <div
      className="relative flex min-h-8 flex-col justify-center border-t py-1.5 pr-5 pl-3"
      data-testid={`path-${handle}`}
    >
      <span
        className={cn('truncate text-xs font-medium', muted && 'text-muted-foreground italic')}
        title={label}
      >
        {label}
      </span>
      {detail && (
        <span className="truncate font-mono text-[10px] text-muted-foreground" title={detail}>
          {detail}
        </span>
      )}
      <Handle
        type="source"
        id={handle}
        position={Position.Right}
        className={handleClass}
        title={`Connect the ${label} path`}
      />
    </div>
  );
}
