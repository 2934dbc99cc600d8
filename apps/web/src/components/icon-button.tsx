import type { ReactNode } from 'react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';

/**
 * A small icon-only action of a row or card (delete, configure, disconnect): `tooltip` says what it
 * does on hover, `label` names it for screen readers (with what it acts on), `destructive` reddens it
 * on hover, `busy` shows a spinner and disables it.
 */
export function IconButton({
  icon,
  tooltip,
  label,
  onClick,
  destructive = false,
  busy = false,
  className,
}: {
  icon: ReactNode;
  tooltip: string;
  label: string;
  onClick: () => void;
  destructive?: boolean;
  busy?: boolean;
  className?: string;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className={cn(
            'size-8 shrink-0',
            destructive && 'text-muted-foreground hover:bg-destructive/10 hover:text-destructive',
            className,
          )}
          onClick={onClick}
          disabled={busy}
          aria-label={label}
        >
          {busy ? <Spinner /> : icon}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </Tooltip>
  );
}
