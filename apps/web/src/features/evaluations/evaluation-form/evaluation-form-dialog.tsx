// New evaluation and Edit evaluation: a name, the workflow it grades (fixed once created), the dataset
// it runs, its graders, the share of graders an item must pass, and an optional nightly run with its
// alert threshold. The contracts' schema checks it before it is sent; the server's refusals show on
// their fields or in the banner.
import { graderTypeLabels, graderTypeValues, type Evaluation, type GraderType } from '@crewline/contracts';
import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { parseApiError } from '@/lib/api';
import { useWorkflows } from '@/lib/queries/workflows';

import { useDatasets } from '../api/datasets';
import { useCreateEvaluation, useUpdateEvaluation } from '../api/evaluations';
import {
  draftFromEvaluation,
  emptyDraft,
  evaluationBody,
  newGrader,
  type DraftErrors,
  type EvaluationDraft,
  type GraderDraft,
} from './evaluation-draft';
import { Field } from './field';
import { GraderFields } from './grader-fields';

export function EvaluationFormDialog({
  open,
  onOpenChange,
  evaluation,
  initial,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The evaluation to change; null to create one. */
  evaluation: Evaluation | null;
  /** What a new evaluation starts with (a dataset, the graders an import converted). */
  initial?: Partial<EvaluationDraft>;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={evaluation ? 'Edit evaluation' : 'New evaluation'}
      description="Grade a workflow's answers on a dataset's cases."
      className="sm:max-w-2xl"
    >
      <EvaluationForm evaluation={evaluation} initial={initial} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function EvaluationForm({
  evaluation,
  initial,
  onDone,
}: {
  evaluation: Evaluation | null;
  initial?: Partial<EvaluationDraft>;
  onDone: () => void;
}) {
  const navigate = useNavigate();
  const workflows = useWorkflows();
  const datasets = useDatasets();
  const create = useCreateEvaluation();
  const update = useUpdateEvaluation();
  const pending = create.isPending || update.isPending;
  const [draft, setDraft] = useState<EvaluationDraft>(() =>
    evaluation ? draftFromEvaluation(evaluation) : { ...emptyDraft(), ...initial },
  );
  const [errors, setErrors] = useState<DraftErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [addType, setAddType] = useState<GraderType>('exact');
  const nightlyId = useId();

  const change = (patch: Partial<EvaluationDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const changeGrader = (key: string, patch: Partial<GraderDraft>) =>
    setDraft((current) => ({
      ...current,
      graders: current.graders.map((grader) => (grader.key === key ? { ...grader, ...patch } : grader)),
    }));

  const onError = (error: unknown) => {
    const parsed = parseApiError(error);
    const fields: DraftErrors = {};
    for (const issue of parsed.errors) fields[issue.path] ??= issue.message;
    setErrors(fields);
    setBanner(
      parsed.errors.length > 0
        ? null
        : (parsed.message ?? `Failed to ${evaluation ? 'save' : 'create'} evaluation`),
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const checked = evaluationBody(draft);
    setErrors(checked.errors ?? {});
    if (!checked.body) return;
    if (evaluation) {
      const { workflowId: _fixed, ...body } = checked.body;
      update.mutate({ id: evaluation.id, body }, { onSuccess: onDone, onError });
      return;
    }
    create.mutate(checked.body, {
      onSuccess: (created) => {
        onDone();
        if (created?.id) void navigate(`/evaluations/${created.id}`);
      },
      onError,
    });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Evaluation">
      <FormBanner message={banner} />
      <Field label="Name" error={errors.name}>
        {(control) => (
          <Input
            {...control}
            value={draft.name}
            autoComplete="off"
            autoFocus
            placeholder="e.g. Support answers"
            onChange={(event) => change({ name: event.target.value })}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Workflow" error={errors.workflowId}>
          {(control) => (
            <Select
              value={draft.workflowId}
              onValueChange={(workflowId) => change({ workflowId })}
              disabled={!!evaluation}
            >
              <SelectTrigger className="w-full" {...control}>
                <SelectValue placeholder={workflows.isLoading ? 'Loading…' : 'Choose a workflow'} />
              </SelectTrigger>
              <SelectContent>
                {(workflows.data ?? []).map((workflow) => (
                  <SelectItem key={workflow.id} value={workflow.id}>
                    {workflow.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </Field>
        <Field label="Dataset" error={errors.datasetId}>
          {(control) => (
            <Select value={draft.datasetId} onValueChange={(datasetId) => change({ datasetId })}>
              <SelectTrigger className="w-full" {...control}>
                <SelectValue placeholder={datasets.isLoading ? 'Loading…' : 'Choose a dataset'} />
              </SelectTrigger>
              <SelectContent>
                {(datasets.data ?? []).map((dataset) => (
                  <SelectItem key={dataset.id} value={dataset.id}>
                    {dataset.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </Field>
      </div>

      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium">Graders</legend>
        {errors.graders && <p className="text-xs text-destructive">{errors.graders}</p>}
        <ol className="grid gap-3" aria-label="Graders">
          {draft.graders.map((grader, index) => (
            <GraderFields
              key={grader.key}
              grader={grader}
              index={index}
              errors={errors}
              onChange={(patch) => changeGrader(grader.key, patch)}
              onRemove={() => change({ graders: draft.graders.filter((other) => other.key !== grader.key) })}
            />
          ))}
        </ol>
        <div className="flex flex-wrap items-center gap-2">
          <Select value={addType} onValueChange={(type) => setAddType(type as GraderType)}>
            <SelectTrigger className="w-56" aria-label="Grader type">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {graderTypeValues.map((type) => (
                <SelectItem key={type} value={type}>
                  {graderTypeLabels[type]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Button
            type="button"
            variant="outline"
            onClick={() => change({ graders: [...draft.graders, newGrader(addType)] })}
          >
            <Plus aria-hidden="true" />
            Add grader
          </Button>
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Pass threshold (%)"
          error={errors.passPercent}
          hint="An item passes when this share of its graders (by weight) pass"
        >
          {(control) => (
            <Input
              {...control}
              value={draft.passPercent}
              inputMode="decimal"
              onChange={(event) => change({ passPercent: event.target.value })}
            />
          )}
        </Field>
        <div className="grid content-start gap-3">
          <div className="flex items-center gap-2 pt-6">
            <Switch
              id={nightlyId}
              checked={draft.nightly}
              onCheckedChange={(nightly) => change({ nightly })}
            />
            <Label htmlFor={nightlyId} className="font-normal">
              Run nightly against the active version
            </Label>
          </div>
          {draft.nightly && (
            <Field label="Alert below (%)" error={errors.alertPercent}>
              {(control) => (
                <Input
                  {...control}
                  value={draft.alertPercent}
                  inputMode="decimal"
                  onChange={(event) => change({ alertPercent: event.target.value })}
                />
              )}
            </Field>
          )}
        </div>
      </div>
      <FormDialogActions
        submitLabel={evaluation ? 'Save changes' : 'Create evaluation'}
        pending={pending}
        onCancel={onDone}
      />
    </form>
  );
}
