// A running eval run's progress ('42/120') and its Cancel, which asks first: the items not yet run
// are then not run at all.
import type { EvalRun } from '@crewline/contracts';
import { CircleStop } from 'lucide-react';
import { useState } from 'react';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';

import { useCancelEvalRun } from '../api/eval-runs';
import { formatProgress, progressPercent } from './eval-run-figures';

export function EvalRunProgress({ run }: { run: EvalRun }) {
  const cancel = useCancelEvalRun(run);
  const [confirming, setConfirming] = useState(false);
  return (
    <section
      aria-label="Progress"
      className="flex flex-col gap-3 rounded-xl border p-4 sm:flex-row sm:items-center"
    >
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex items-baseline justify-between gap-2 text-sm">
          <span className="text-muted-foreground">Running items…</span>
          <span className="font-medium tabular-nums" data-testid="eval-run-progress">
            {formatProgress(run.progress)}
          </span>
        </div>
        <Progress value={progressPercent(run.progress)} aria-label="Items run" />
      </div>
      <Button variant="outline" onClick={() => setConfirming(true)} disabled={cancel.isPending}>
        <CircleStop aria-hidden="true" />
        Cancel
      </Button>
      <ConfirmDialog
        title="Cancel this eval run?"
        description="Items not yet run are not run."
        open={confirming}
        onOpenChange={setConfirming}
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate(undefined, { onSettled: () => setConfirming(false) })}
        confirmLabel="Cancel eval run"
        pendingLabel="Cancelling..."
        variant="destructive"
      />
    </section>
  );
}
