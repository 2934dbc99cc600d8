import type { ExecuteWorkflowInput } from '@crewline/contracts';
import { CircleCheck, ListPlus, Play, Plus, SlidersHorizontal, X } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';

import { Spinner } from '@/components/spinner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

import {
  addParameter,
  buildExecuteRequest,
  parameterCountLabel,
  parameterErrors,
  removeParameter,
  renameParameter,
  setParameterValue,
  type ParameterRow,
} from './execute-parameters';

/**
 * The Execute dialog (docs/product-rules.md): optional runtime instructions and optional parameters named
 * param_N (renamable, removable). Confirm reads 'Starting...' while the run is being started.
 */
export function ExecuteWorkflowDialog({
  workflowName,
  open,
  onOpenChange,
  pending,
  onExecute,
  notice,
}: {
  workflowName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** True while the start request runs. */
  pending: boolean;
  /** Starts the run; `done` is called once it started, to close and clear the dialog. */
  onExecute: (body: ExecuteWorkflowInput, done: () => void) => void;
  /** Shown above the buttons, e.g. the plan limit that refused the run. */
  notice?: ReactNode;
}) {
  const [instructions, setInstructions] = useState('');
  const [rows, setRows] = useState<ParameterRow[]>([]);
  const instructionsId = useId();
  const parametersId = useId();
  const baseId = useId();

  const errors = useMemo(() => parameterErrors(rows), [rows]);
  const invalid = Object.keys(errors).length > 0;
  const hasInstructions = instructions.trim() !== '';

  const reset = () => {
    setInstructions('');
    setRows([]);
  };

  const changeOpen = (next: boolean) => {
    if (pending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending || invalid) return;
    onExecute(buildExecuteRequest(instructions, rows), () => {
      reset();
      onOpenChange(false);
    });
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="max-h-[90svh] overflow-y-auto sm:max-w-xl">
        <form onSubmit={submit} className="grid gap-5" noValidate>
          <DialogHeader>
            <DialogTitle>Execute Workflow</DialogTitle>
            <DialogDescription>
              Start a run of <span className="font-medium break-words text-foreground">{workflowName}</span>.
              Instructions and parameters are optional and apply to this run only.
            </DialogDescription>
          </DialogHeader>

          <div className="grid gap-2">
            <Label htmlFor={instructionsId}>
              Runtime Instructions <span className="font-normal text-muted-foreground">(optional)</span>
            </Label>
            <Textarea
              id={instructionsId}
              value={instructions}
              onChange={(event) => setInstructions(event.target.value)}
              placeholder="e.g. Focus on European competitors and keep the summary under 200 words"
              className="max-h-48 min-h-24"
              maxLength={20_000}
              disabled={pending}
            />
            <p className="text-xs text-muted-foreground">Every agent of the workflow receives these.</p>
          </div>

          <div
            role="group"
            className="grid gap-3"
            aria-labelledby={`${baseId}-parameters`}
            aria-describedby={parametersId}
          >
            <div className="flex items-center justify-between gap-3">
              <span id={`${baseId}-parameters`} className="text-sm leading-none font-medium">
                Parameters <span className="font-normal text-muted-foreground">(optional)</span>
              </span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => setRows((current) => addParameter(current))}
                disabled={pending}
              >
                <Plus aria-hidden="true" />
                Add Parameter
              </Button>
            </div>
            <p id={parametersId} className="-mt-1 text-xs text-muted-foreground">
              Named values passed to every agent, e.g. a region or a tone.
            </p>

            {rows.length === 0 ? (
              <div className="flex items-center gap-3 rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground">
                <ListPlus className="size-4 shrink-0" aria-hidden="true" />
                No parameters for this run.
              </div>
            ) : (
              <ul className="grid gap-2" aria-label="Parameters">
                <li
                  aria-hidden="true"
                  className="hidden grid-cols-[minmax(0,2fr)_minmax(0,3fr)_2rem] gap-2 px-1 text-xs text-muted-foreground sm:grid"
                >
                  <span>Name</span>
                  <span>Value</span>
                </li>
                {rows.map((row, index) => {
                  const error = errors[row.id];
                  const errorId = `${baseId}-param-${row.id}-error`;
                  const label = row.name.trim() || `parameter ${index + 1}`;
                  return (
                    <li key={row.id} className="grid gap-1" data-testid="parameter-row">
                      <div className="grid grid-cols-[minmax(0,1fr)_2rem] gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_2rem]">
                        <Input
                          aria-label={`Parameter ${index + 1} name`}
                          value={row.name}
                          onChange={(event) =>
                            setRows((current) => renameParameter(current, row.id, event.target.value))
                          }
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? errorId : undefined}
                          className="font-mono text-sm"
                          autoComplete="off"
                          spellCheck={false}
                          maxLength={120}
                          disabled={pending}
                        />
                        <Input
                          aria-label={`Parameter ${index + 1} value`}
                          value={row.value}
                          onChange={(event) =>
                            setRows((current) => setParameterValue(current, row.id, event.target.value))
                          }
                          placeholder="Value"
                          className="col-start-1 row-start-2 sm:col-start-auto sm:row-start-auto"
                          autoComplete="off"
                          disabled={pending}
                        />
                        <Button
                          type="button"
                          variant="ghost"
                          size="icon"
                          className="col-start-2 row-start-1 size-9 text-muted-foreground hover:text-destructive sm:col-start-auto sm:row-start-auto"
                          aria-label={`Remove ${label}`}
                          onClick={() => setRows((current) => removeParameter(current, row.id))}
                          disabled={pending}
                        >
                          <X aria-hidden="true" />
                        </Button>
                      </div>
                      {error && (
                        <p id={errorId} className="px-1 text-xs text-destructive" role="alert">
                          {error}
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>

          {(hasInstructions || rows.length > 0) && (
            <div
              className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted/30 px-3 py-2 text-sm"
              data-testid="execute-summary"
              aria-live="polite"
            >
              <span className="text-xs text-muted-foreground">This run:</span>
              {hasInstructions && (
                <Badge variant="secondary" className="font-normal">
                  <CircleCheck aria-hidden="true" />
                  Instructions provided
                </Badge>
              )}
              {rows.length > 0 && (
                <Badge variant="secondary" className="font-normal">
                  <SlidersHorizontal aria-hidden="true" />
                  {parameterCountLabel(rows.length)}
                </Badge>
              )}
            </div>
          )}

          {notice}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => changeOpen(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || invalid} aria-busy={pending}>
              {pending ? <Spinner /> : <Play aria-hidden="true" />}
              {pending ? 'Starting...' : 'Execute'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
