import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** A centered "nothing here yet" block with an icon, a title, a hint and an optional action. */
export function EmptyState({
  icon: Icon,
  title,
  description,
  action,
  className,
}: {
  icon?: LucideIcon;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed px-6 py-10 text-center',
        className,
      )}
    >
      {Icon && (
        <span className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground">
          <Icon className="size-5" aria-hidden="true" />
        </span>
      )}
      <div className="space-y-1">
        <p className="font-medium">{title}</p>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {action}
    </div>
  );
}

/** What a list or page shows when its data could not be loaded: the reason and a way to retry. */
export function LoadErrorState({
  icon,
  title,
  onRetry,
  size,
  className,
}: {
  icon?: LucideIcon;
  title: ReactNode;
  onRetry: () => void;
  size?: 'default' | 'sm';
  className?: string;
}) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      description="Check your connection and try again."
      action={
        <Button type="button" variant="outline" size={size} onClick={onRetry}>
          Try again
        </Button>
      }
      className={className}
    />
  );
}
