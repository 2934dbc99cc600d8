// Activate behind the activation gate (docs/product-rules.md, Evaluations): 'Evaluating before
// activation' follows the evaluation the server started (GET /api/eval-runs/:id every 1.5 s) and, when
// it ends, says how it went: passed (the server records the version by itself), failed (Activate is
// sent once more to hear the refusal with its failed items), cancelled or broken. 'Activation refused'
// names the failed items and lets an owner activate anyway, with a note kept with the version.
import { evaluationMessages, gateOverrideSchema, type EvalRun } from '@crewline/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { evaluationKeys } from '@/lib/evaluation-keys';
import { useAuth } from '@/lib/session';

import {
  evaluationFailedOf,
  evaluationRunningOf,
  type EvaluationFailed,
  type UpdateAnswer,
} from '@/features/workflows/activation-answers';
import { invalidateWorkflows } from '@/features/workflows/api/invalidate-workflows';
import { useUpdateWorkflow } from '@/features/workflows/api/update-workflow';
import { ACTIVATION_FAILED_TOAST } from '@/features/workflows/workflow-actions';
import { gatePasses, passRateText, shortJson } from '../activation-gate';
import { type GateFlow, useBuilderStore } from '../store';

/** How often the evaluation's progress is read again while it runs. */
const GATE_POLL_MS = 1500;

const evalRunPath = (id: string) => `/evaluations/runs/${encodeURIComponent(id)}`;

type Running = Extract<GateFlow, { step: 'running' }>;

function EvalRunLink({ id }: { id: string }) {
  return (
    <Button asChild variant="outline">
      <Link to={evalRunPath(id)}>Open the eval run</Link>
    </Button>
  );
}

/** What the dialog says under its title: running, or how the evaluation ended. */
function progressText(run: EvalRun | undefined, flow: Running): string {
  if (!run || run.status === 'running') {
    return 'Activate runs the evaluation on your changes first; the version is recorded when it passes. Closing this does not stop it.';
  }
  if (run.status === 'cancelled') {
    return 'The evaluation was cancelled: nothing was activated. Activate again to run it anew.';
  }
  if (run.status === 'failed') {
    return `The evaluation could not finish${run.error ? `: ${run.error}` : ''}. Nothing was activated. Activate again to run it anew.`;
  }
  if (flow.minPassRate !== null && gatePasses(run.passRate, flow.minPassRate)) {
    return `Evaluation passed: ${passRateText(run.passRate ?? 0)}.`;
  }
  return flow.retried
    ? 'The evaluation did not pass: nothing was activated.'
    : 'The evaluation ended: reading its verdict…';
}

function GateProgressDialog({
  flow,
  onEnded,
  onClose,
}: {
  flow: Running;
  /** Called once when the eval run is no longer running. */
  onEnded: (run: EvalRun) => void;
  onClose: () => void;
}) {
  const run = useQuery<EvalRun>({
    queryKey: evaluationKeys.evalRun(flow.evalRunId),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? GATE_POLL_MS : false),
  });
  const data = run.data;
  const ended = useRef(false);
  useEffect(() => {
    if (!data || data.status === 'running' || ended.current) return;
    ended.current = true;
    onEnded(data);
  }, [data, onEnded]);

  const { done, total } = data?.progress ?? { done: 0, total: 0 };
  const running = !data || data.status === 'running';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Evaluating before activation</DialogTitle>
          <DialogDescription>{progressText(data, flow)}</DialogDescription>
        </DialogHeader>
        <div className="space-y-2">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span className="flex items-center gap-2 text-muted-foreground">
              {running && <Spinner />}
              {running ? 'Running items…' : 'Items run'}
            </span>
            <span className="font-medium tabular-nums" data-testid="gate-progress">
              {data ? `${done}/${total}` : '…'}
            </span>
          </div>
          <Progress value={total > 0 ? (done / total) * 100 : 0} aria-label="Items run" />
          {run.isError && (
            <p role="alert" className="text-xs text-destructive">
              The progress could not be read. The evaluation goes on; open the eval run to follow it.
            </p>
          )}
        </div>
        <DialogFooter>
          <EvalRunLink id={flow.evalRunId} />
          <Button onClick={onClose}>Close</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ActivationRefusedDialog({
  refusal,
  canOverride,
  pending,
  onOverride,
  onClose,
}: {
  refusal: EvaluationFailed;
  /** An owner may record the version despite the gate. */
  canOverride: boolean;
  pending: boolean;
  /** Sends the override; answers the server's reason when it refused it. */
  onOverride: (note: string) => Promise<string | null>;
  onClose: () => void;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const noteId = useId();
  const items = refusal.failedItems;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = gateOverrideSchema.safeParse({ note });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Say why');
      return;
    }
    setError(await onOverride(checked.data.note));
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <ShieldAlert className="size-5 text-destructive" aria-hidden="true" />
            Activation refused
          </DialogTitle>
          <DialogDescription>{refusal.message}</DialogDescription>
        </DialogHeader>
        {items.length > 0 && (
          <section aria-labelledby={`${noteId}-items`} className="min-w-0 space-y-2">
            <h3 id={`${noteId}-items`} className="text-sm font-medium">
              {items.length === 20 ? 'Failed items (the first 20)' : 'Failed items'}
            </h3>
            <ul className="max-h-64 divide-y overflow-y-auto rounded-md border">
              {items.map((item) => (
                <li key={item.itemId} className="space-y-1 px-3 py-2" data-testid="gate-failed-item">
                  <code className="block font-mono text-xs wrap-anywhere">{shortJson(item.input)}</code>
                  <p className="text-xs wrap-anywhere text-muted-foreground">{item.reason}</p>
                </li>
              ))}
            </ul>
          </section>
        )}
        {canOverride ? (
          <form className="space-y-2 border-t pt-4" onSubmit={(event) => void submit(event)} noValidate>
            <Label htmlFor={noteId}>Why activate anyway?</Label>
            <Textarea
              id={noteId}
              value={note}
              rows={2}
              maxLength={400}
              required
              disabled={pending}
              placeholder="e.g. The failing cases are outdated; the dataset is being fixed"
              onChange={(event) => {
                setNote(event.target.value);
                setError(null);
              }}
              aria-describedby={`${noteId}-hint${error ? ` ${noteId}-error` : ''}`}
              {...(error && { 'aria-invalid': true })}
            />
            {error && (
              <p id={`${noteId}-error`} role="alert" className="text-xs wrap-anywhere text-destructive">
                {error}
              </p>
            )}
            <p id={`${noteId}-hint`} className="text-xs text-muted-foreground">
              As an owner you may record the version anyway; the note is kept with it.
            </p>
            <Button type="submit" variant="destructive" disabled={pending} aria-busy={pending}>
              {pending && <Spinner />}
              Activate anyway
            </Button>
          </form>
        ) : (
          <p className="text-sm text-muted-foreground">{evaluationMessages.gateOverrideOwnersOnly}.</p>
        )}
        <DialogFooter>
          <EvalRunLink id={refusal.evalRunId} />
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The builder's gate dialogs, driven by the store's `gateFlow` (set by the save when Activate answers
 * 202 or the refusal): sends Activate again once an evaluation failed, and an owner's override.
 */
export function ActivationGateFlow() {
  const flow = useBuilderStore((s) => s.gateFlow);
  const setFlow = useBuilderStore((s) => s.setGateFlow);
  const workflowId = useBuilderStore((s) => s.workflowId);
  const queryClient = useQueryClient();
  const update = useUpdateWorkflow();
  const { organization } = useAuth();

  const refresh = () => {
    invalidateWorkflows(queryClient);
    void queryClient.invalidateQueries({ queryKey: evaluationKeys.evaluations });
  };
  const activated = (description: string) => {
    useBuilderStore.getState().setExistingStatus('active');
    setFlow(null);
    refresh();
    toast({ title: 'Workflow Activated', description });
  };

  /** Activate again (the working copy is saved): 200 activated, 202 running anew, 409 the refusal. */
  const activateAgain = async (retried: Running) => {
    if (!workflowId) return;
    let answer: UpdateAnswer | null;
    try {
      answer = await update.mutateAsync({ id: workflowId, input: { status: 'active' } });
    } catch (error) {
      const refusal = evaluationFailedOf(error);
      if (refusal) setFlow({ step: 'refused', refusal });
      else {
        setFlow(null);
        toast(ACTIVATION_FAILED_TOAST);
      }
      return;
    }
    const running = evaluationRunningOf(answer);
    if (running) setFlow({ ...retried, evalRunId: running.evalRunId, retried: true });
    else activated('The evaluation passed.');
  };

  const onEnded = (run: EvalRun) => {
    if (flow?.step !== 'running' || run.status !== 'completed') return;
    if (flow.minPassRate !== null && gatePasses(run.passRate, flow.minPassRate)) {
      activated(`Evaluation passed: ${passRateText(run.passRate ?? 0)}`);
      // The server records the version just after the run ends: read the workflow once more then.
      setTimeout(refresh, GATE_POLL_MS);
      return;
    }
    if (!flow.retried) void activateAgain(flow);
  };

  const onOverride = async (note: string): Promise<string | null> => {
    if (!workflowId) return null;
    try {
      const answer = await update.mutateAsync({
        id: workflowId,
        input: { status: 'active', gateOverride: { note } },
      });
      if (evaluationRunningOf(answer)) return 'The evaluation is running again: try once it has ended.';
      activated('Recorded despite the activation gate, with your note.');
      return null;
    } catch (error) {
      return getErrorMessage(error, 'The activation failed. Try again.');
    }
  };

  if (!flow) return null;
  if (flow.step === 'running') {
    return (
      <GateProgressDialog
        key={`${flow.evalRunId}:${flow.retried}`}
        flow={flow}
        onEnded={onEnded}
        onClose={() => setFlow(null)}
      />
    );
  }
  return (
    <ActivationRefusedDialog
      refusal={flow.refusal}
      canOverride={organization?.role === 'owner'}
      pending={update.isPending}
      onOverride={onOverride}
      onClose={() => setFlow(null)}
    />
  );
}
