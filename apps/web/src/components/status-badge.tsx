import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const tone = {
  green: 'border-emerald-500/25 bg-emerald-500/10 text-emerald-700 dark:text-emerald-400',
  red: 'border-red-500/25 bg-red-500/10 text-red-700 dark:text-red-400',
  blue: 'border-blue-500/25 bg-blue-500/10 text-blue-700 dark:text-blue-400',
  yellow: 'border-amber-500/30 bg-amber-500/10 text-amber-700 dark:text-amber-400',
  violet: 'border-violet-500/25 bg-violet-500/10 text-violet-700 dark:text-violet-300',
  gray: 'border-border bg-muted text-muted-foreground',
} as const;

export type StatusTone = keyof typeof tone;

/**
 * Execution status colours (docs/product-rules.md): completed green, failed red, running blue, waiting
 * (for an approval or a delay) violet, anything else yellow.
 */
export function executionStatusTone(status: string): StatusTone {
  if (status === 'completed') return 'green';
  if (status === 'failed') return 'red';
  if (status === 'running') return 'blue';
  if (status === 'waiting') return 'violet';
  return 'yellow';
}

export function workflowStatusTone(status: string): StatusTone {
  switch (status) {
    case 'active':
    case 'completed':
      return 'green';
    case 'failed':
      return 'red';
    case 'paused':
      return 'yellow';
    default:
      return 'gray';
  }
}

/** Agent status: active, busy, error; anything else is shown as inactive (docs/product-rules.md). */
export function agentStatusLabel(status: string): 'active' | 'busy' | 'error' | 'inactive' {
  return status === 'active' || status === 'busy' || status === 'error' ? status : 'inactive';
}

export function agentStatusTone(status: string): StatusTone {
  switch (agentStatusLabel(status)) {
    case 'active':
      return 'green';
    case 'busy':
      return 'blue';
    case 'error':
      return 'red';
    default:
      return 'gray';
  }
}

/** A soft, coloured status pill. The label is shown as given (capitalised by CSS). */
export function StatusBadge({
  label,
  tone: t,
  className,
}: {
  label: string;
  tone: StatusTone;
  className?: string;
}) {
  return (
    <Badge variant="outline" className={cn('capitalize', tone[t], className)}>
      {label}
    </Badge>
  );
}
