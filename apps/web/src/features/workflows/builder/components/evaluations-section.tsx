// The Settings tab's Evaluations section (issue 39, docs/product-rules.md, Evaluations): this
// workflow's evaluations with their last pass rate, a way to the Evaluations page, and the activation
// gate, saved with the workflow in `config.activationGate` (activation-gate.ts). Loaded lazily by
// settings-tab.tsx, so the builder's first download does not grow.
import type { Evaluation } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { FlaskConical, Plus } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';

import { Skeleton } from '@/components/ui/skeleton';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useAuth } from '@/lib/session';
import { evaluationKeys } from '@/lib/evaluation-keys';

import { GATE_HELP, GATE_SWITCH_LABEL, gateProblems, passRateText } from '../activation-gate';
import { useBuilderStore } from '../store';
import { SelectField, TextField } from './fields';

const EVALUATIONS_PATH = '/evaluations';
const NO_EVALUATION = 'Choose an evaluation';

/** The last run's pass rate as the list shows it. */
function lastRunText(evaluation: Evaluation): string {
  const run = evaluation.lastRun;
  if (!run) return 'Never run';
  if (run.passRate !== null) return passRateText(run.passRate);
  return run.status === 'running' ? 'Running' : 'No score';
}

function EvaluationList({ evaluations }: { evaluations: Evaluation[] }) {
  if (evaluations.length === 0) {
    return <p className="text-xs text-muted-foreground">No evaluation of this workflow yet.</p>;
  }
  return (
    <ul className="divide-y rounded-md border" aria-label="Evaluations of this workflow">
      {evaluations.map((evaluation) => (
        <li key={evaluation.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
          <Link
            to={`${EVALUATIONS_PATH}/${encodeURIComponent(evaluation.id)}`}
            className="min-w-0 truncate font-medium hover:underline"
          >
            {evaluation.name}
          </Link>
          <span className="shrink-0 text-xs text-muted-foreground tabular-nums" title="Last run's pass rate">
            {lastRunText(evaluation)}
          </span>
        </li>
      ))}
    </ul>
  );
}

const GATE_ADMINS_ONLY = 'Only owners and admins change the activation gate.';

function ActivationGateFields({ evaluations }: { evaluations: Evaluation[] }) {
  const gate = useBuilderStore((s) => s.settings.activationGate);
  const setGate = useBuilderStore((s) => s.setActivationGate);
  const switchId = useId();
  const problems = gateProblems(gate);
  // The gate is a control over releases: only owners and admins change it (the server says so too).
  const { organization } = useAuth();
  const mayChange = organization?.role === 'owner' || organization?.role === 'admin';
  // The saved gate's evaluation stays choosable even before the list arrives.
  const options = [
    ...evaluations.map((e) => e.id),
    ...(gate.evaluationId && !evaluations.some((e) => e.id === gate.evaluationId) ? [gate.evaluationId] : []),
  ];
  const labels: Record<string, string> = {};
  for (const id of options) labels[id] = evaluations.find((e) => e.id === id)?.name ?? id;

  return (
    <fieldset disabled={!mayChange} className="space-y-4 rounded-md border p-3">
      <div className="flex items-start justify-between gap-3">
        <div className="space-y-1">
          <Label htmlFor={switchId} className="text-sm leading-snug">
            {GATE_SWITCH_LABEL}
          </Label>
          <p className="text-xs text-muted-foreground">{GATE_HELP}</p>
        </div>
        <Switch
          id={switchId}
          checked={gate.enabled}
          // A gate needs one of this workflow's evaluations; a saved one can always be turned off.
          disabled={!mayChange || (!gate.enabled && evaluations.length === 0)}
          onCheckedChange={(enabled) => setGate({ enabled })}
        />
      </div>
      {!gate.enabled && evaluations.length === 0 && (
        <p className="text-xs text-muted-foreground">Create an evaluation of this workflow to gate it.</p>
      )}
      {gate.enabled && (
        <>
          <SelectField
            label="Evaluation"
            value={gate.evaluationId}
            options={options}
            labels={labels}
            placeholder={NO_EVALUATION}
            error={problems.evaluationId}
            onChange={(evaluationId) => setGate({ evaluationId })}
          />
          <TextField
            label="Minimum pass rate"
            value={gate.minPassRate}
            inputMode="decimal"
            hint="In percent, 0–100: the share of the dataset's items that must pass."
            error={problems.minPassRate}
            onChange={(minPassRate) => setGate({ minPassRate })}
          />
        </>
      )}
      {!mayChange && <p className="text-xs text-muted-foreground">{GATE_ADMINS_ONLY}</p>}
    </fieldset>
  );
}

export function EvaluationsSection() {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const list = useQuery<Evaluation[]>({
    queryKey: evaluationKeys.evaluationList({ workflowId: workflowId ?? undefined }),
    enabled: !!workflowId,
    staleTime: 30_000,
  });
  const evaluations = list.data ?? [];

  return (
    <section aria-labelledby="workflow-evaluations-heading" className="space-y-4 border-t pt-4">
      <div className="space-y-1">
        <h3 id="workflow-evaluations-heading" className="flex items-center gap-1.5 text-sm font-semibold">
          <FlaskConical className="size-3.5 text-muted-foreground" aria-hidden="true" />
          Evaluations
        </h3>
        <p className="text-xs text-muted-foreground">
          Datasets of cases this workflow should get right, graded against a version.
        </p>
      </div>
      {!workflowId ? (
        <p className="text-xs text-muted-foreground">Save the workflow to evaluate it.</p>
      ) : list.isPending ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading the evaluations">
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </div>
      ) : list.isError ? (
        <p role="alert" className="text-xs text-destructive">
          The evaluations could not be loaded.
        </p>
      ) : (
        <EvaluationList evaluations={evaluations} />
      )}
      <Link
        to={EVALUATIONS_PATH}
        className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
      >
        <Plus className="size-3.5" aria-hidden="true" />
        New evaluation
      </Link>
      {workflowId && <ActivationGateFields evaluations={list.isSuccess ? evaluations : []} />}
    </section>
  );
}
