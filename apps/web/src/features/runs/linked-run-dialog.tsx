import type { Workflow } from '@crewline/contracts';
import { useEffect, useMemo } from 'react';

import { toast } from '@/components/ui/use-toast';
import { executionSummaryOf } from '@/lib/execution-summaries';
import { useExecution } from '@/lib/queries/executions';

import { ExecutionDetailsDialog } from './execution-details-dialog';
import { executionWorkflowName } from './execution-facts';

/**
 * The details of the run the page's address names (lib/run-links.ts: a link from another screen,
 * such as the run an agent's memory came from). Read by id, as it may be older than the list's
 * pages; a run that no longer exists says so and closes.
 */
export function LinkedRunDialog({
  runId,
  workflows,
  onClose,
}: {
  runId: string;
  workflows: Workflow[] | undefined;
  onClose: () => void;
}) {
  const run = useExecution(runId, { enabled: true });
  const summary = useMemo(() => (run.data ? executionSummaryOf(run.data) : null), [run.data]);

  useEffect(() => {
    if (!run.isError) return;
    toast({ variant: 'destructive', title: 'Run not found', description: 'This run no longer exists.' });
    onClose();
  }, [run.isError, onClose]);

  if (!summary) return null;
  return (
    <ExecutionDetailsDialog
      execution={summary}
      workflowName={executionWorkflowName(summary, workflows)}
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    />
  );
}
