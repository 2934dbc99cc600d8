// The run status pill (docs/product-rules.md): one colour and icon per status, on the execution
// card and in the run details.
import { Ban, CircleAlert, CircleCheck, Clock, Hourglass, LoaderCircle, type LucideIcon } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { capitalize } from '@/lib/format';
import { cn } from '@/lib/utils';

const EXECUTION_STYLE: Record<string, { icon: LucideIcon; className: string }> = {
  completed: {
    icon: CircleCheck,
    className: 'border-emerald-500/25 bg-emerald-500/10 text-emerald-700 dark:text-emerald-400',
  },
  failed: { icon: CircleAlert, className: 'border-red-500/25 bg-red-500/10 text-red-700 dark:text-red-400' },
  running: {
    icon: LoaderCircle,
    className: 'border-blue-500/25 bg-blue-500/10 text-blue-700 dark:text-blue-400 [&>svg]:animate-spin',
  },
  // Waiting for people or a time (People in the loop): its own colour, apart from pending's yellow.
  waiting: {
    icon: Hourglass,
    className: 'border-violet-500/30 bg-violet-500/10 text-violet-700 dark:text-violet-300',
  },
  cancelled: {
    icon: Ban,
    className: 'border-amber-500/30 bg-amber-500/10 text-amber-700 dark:text-amber-400',
  },
};

const EXECUTION_DEFAULT_STYLE = {
  icon: Clock,
  className: 'border-amber-500/30 bg-amber-500/10 text-amber-700 dark:text-amber-400',
};

/**
 * Execution colours (docs/product-rules.md): completed green, failed red, running blue, waiting violet,
 * anything else yellow.
 */
export function ExecutionStatusBadge({ status, className }: { status: string; className?: string }) {
  const style = EXECUTION_STYLE[status] ?? EXECUTION_DEFAULT_STYLE;
  const Icon = style.icon;
  return (
    <Badge
      variant="outline"
      className={cn(style.className, 'motion-reduce:[&>svg]:animate-none', className)}
      data-testid="execution-status"
      data-status={status}
    >
      <Icon aria-hidden="true" />
      {capitalize(status) || 'Pending'}
    </Badge>
  );
}
