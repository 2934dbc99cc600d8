import type { EvalRunStatus } from '@crewline/contracts';

import { executionStatusTone, StatusBadge } from '@/components/status-badge';

/** An eval run's status in a run's colours: running blue, completed green, failed red, cancelled yellow. */
export function EvalRunStatusBadge({ status, className }: { status: EvalRunStatus; className?: string }) {
  return <StatusBadge label={status} tone={executionStatusTone(status)} className={className} />;
}
