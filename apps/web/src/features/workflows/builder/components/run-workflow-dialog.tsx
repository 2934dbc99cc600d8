// Run from the builder: the Execute dialog for the saved, active workflow. The run then shows on the
// canvas and in the run panel, unfolded.
import { AlertTriangle } from 'lucide-react';
import { useEffect, useState } from 'react';

import { PlanLimitAlert } from '@/components/plan-limit-notice';
import { readPlanLimitError, type PlanLimitInfo } from '@/lib/billing';

import { useExecuteWorkflow } from '@/features/workflows/api/execute-workflow';
import { ExecuteWorkflowDialog } from '@/features/workflows/list/execute-workflow-dialog';
import { useRunProgressStore } from '../run-progress';
import { isDirty, useBuilderStore } from '../store';

export function RunWorkflowDialog({
  open,
  onOpenChange,
  onStartingChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Whether a run is being started (the header's Run shows it). */
  onStartingChange: (starting: boolean) => void;
}) {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const name = useBuilderStore((s) => s.settings.name);
  const [planLimit, setPlanLimit] = useState<PlanLimitInfo | null>(null);
  // The request lives here, with the dialog that sends it (loaded when Run first opens it).
  const execute = useExecuteWorkflow();
  useEffect(() => onStartingChange(execute.isPending), [execute.isPending, onStartingChange]);
  if (!workflowId) return null;
  // Read when the dialog renders: the run executes the saved version, not the canvas.
  const unsaved = open && isDirty();

  return (
    <ExecuteWorkflowDialog
      workflowName={name}
      open={open}
      onOpenChange={(next) => {
        setPlanLimit(null);
        onOpenChange(next);
      }}
      pending={execute.isPending}
      onExecute={(body, done) => {
        setPlanLimit(null);
        execute.mutate(
          { id: workflowId, name, body },
          {
            onSuccess: (execution) => {
              done();
              const progress = useRunProgressStore.getState();
              if (execution?.id) progress.seed({ ...execution, output: {} });
              progress.setPanelOpen(true);
            },
            onError: (error) => setPlanLimit(readPlanLimitError(error)),
          },
        );
      }}
      notice={
        <>
          {unsaved && (
            <p
              className="flex items-start gap-2 rounded-md border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-300"
              data-testid="run-unsaved-notice"
            >
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              The run uses the saved workflow: your unsaved changes are not part of it. Save first (Ctrl+S) to
              run them.
            </p>
          )}
          <PlanLimitAlert info={planLimit} />
        </>
      }
    />
  );
}
