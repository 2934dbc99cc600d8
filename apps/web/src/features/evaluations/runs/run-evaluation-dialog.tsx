// 'Run evaluation': which version of the workflow to run the dataset against (the draft as last
// saved, the active version, or a recorded one) and how many items at once; the run's page opens.
import { EVAL_DEFAULT_CONCURRENCY, EVAL_MAX_CONCURRENCY, type Evaluation } from '@crewline/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage } from '@/lib/api';
import { useWorkflowVersions } from '@/lib/queries/workflow-versions';

import { useStartEvalRun } from '../api/eval-runs';
import { versionOptionLabel } from './eval-run-figures';

export function RunEvaluationDialog({
  evaluation,
  open,
  onOpenChange,
}: {
  evaluation: Evaluation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Run evaluation"
      description={`Run each case of ${evaluation.datasetName} through ${evaluation.workflowName} and grade the answers.`}
      className="sm:max-w-lg"
    >
      <RunEvaluationForm evaluation={evaluation} onCancel={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function RunEvaluationForm({ evaluation, onCancel }: { evaluation: Evaluation; onCancel: () => void }) {
  const navigate = useNavigate();
  const versions = useWorkflowVersions(evaluation.workflowId);
  const start = useStartEvalRun(evaluation.id);
  const versionId = useId();
  const concurrencyId = useId();
  const hasVersions = (versions.data?.length ?? 0) > 0;
  const [chosen, setChosen] = useState<string | null>(null);
  // The active version unless the workflow has none yet (then only the draft can run).
  const version = chosen ?? (hasVersions || versions.isLoading ? 'active' : 'draft');
  const [concurrency, setConcurrency] = useState(String(EVAL_DEFAULT_CONCURRENCY));
  const [banner, setBanner] = useState<string | null>(null);

  const concurrencyValue = Number(concurrency);
  const concurrencyValid =
    Number.isInteger(concurrencyValue) && concurrencyValue >= 1 && concurrencyValue <= EVAL_MAX_CONCURRENCY;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!concurrencyValid) return;
    setBanner(null);
    start.mutate(
      {
        version: version === 'draft' || version === 'active' ? version : Number(version),
        concurrency: concurrencyValue,
      },
      {
        onSuccess: (started) => {
          if (started?.id) void navigate(`/evaluations/runs/${started.id}`);
        },
        onError: (error) => setBanner(getErrorMessage(error, 'Failed to start the evaluation')),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Run evaluation">
      <FormBanner message={banner} />
      <div className="grid gap-1.5">
        <Label htmlFor={versionId}>Version</Label>
        <Select value={version} onValueChange={setChosen}>
          <SelectTrigger id={versionId} className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="draft">Draft (unsaved changes are not included)</SelectItem>
            <SelectItem value="active" disabled={!hasVersions}>
              Active version
            </SelectItem>
            {(versions.data ?? []).map((recorded) => (
              <SelectItem key={recorded.version} value={String(recorded.version)}>
                {versionOptionLabel(recorded)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={concurrencyId}>Concurrency</Label>
        <Input
          id={concurrencyId}
          type="number"
          inputMode="numeric"
          min={1}
          max={EVAL_MAX_CONCURRENCY}
          step={1}
          value={concurrency}
          onChange={(event) => setConcurrency(event.target.value)}
          aria-invalid={!concurrencyValid || undefined}
          aria-describedby={`${concurrencyId}-hint`}
          className="w-28"
        />
        <p
          id={`${concurrencyId}-hint`}
          className={concurrencyValid ? 'text-xs text-muted-foreground' : 'text-xs text-destructive'}
        >
          Items run at once, 1–{EVAL_MAX_CONCURRENCY}.
        </p>
      </div>
      <FormDialogActions submitLabel="Run evaluation" pending={start.isPending} onCancel={onCancel} />
    </form>
  );
}
