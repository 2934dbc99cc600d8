// The header's Pause (an active workflow) and Resume (a paused one): the workflow card's menu actions,
// with the same request and toasts (PUT /api/workflows/:id { status }). Only the saved status changes:
// the canvas and any unsaved edits stay as they are.
import { Pause, Play } from 'lucide-react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';

import { useActivateWorkflow } from '@/features/workflows/api/activate-workflow';
import { usePauseWorkflow } from '@/features/workflows/api/pause-workflow';
import { evaluationRunningOf } from '@/features/workflows/activation-answers';
import { pauseMenuAction } from '@/features/workflows/workflow-actions';
import { useBuilderStore } from '../store';

export function PauseResumeButton({ disabled }: { disabled: boolean }) {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const status = useBuilderStore((s) => s.existingStatus);
  const name = useBuilderStore((s) => s.settings.name);
  const setStatus = useBuilderStore((s) => s.setExistingStatus);
  const pause = usePauseWorkflow();
  const activate = useActivateWorkflow();
  const action = pauseMenuAction(status);
  if (!workflowId || !action) return null;
  const pending = pause.isPending || activate.isPending;

  if (action === 'pause') {
    return (
      <Button
        variant="outline"
        size="sm"
        disabled={disabled || pending}
        aria-busy={pause.isPending}
        onClick={() => pause.mutate({ id: workflowId, name }, { onSuccess: () => setStatus('paused') })}
      >
        {pause.isPending ? <Spinner /> : <Pause aria-hidden="true" />}
        Pause
      </Button>
    );
  }
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={disabled || pending}
      aria-busy={activate.isPending}
      onClick={() =>
        activate.mutate(
          { id: workflowId, name, resume: true },
          // Behind the activation gate a resume of changed work runs the evaluation first (202).
          { onSuccess: (answer) => !evaluationRunningOf(answer) && setStatus('active') },
        )
      }
    >
      {activate.isPending ? <Spinner /> : <Play aria-hidden="true" />}
      {activate.isPending ? 'Resuming...' : 'Resume'}
    </Button>
  );
}
