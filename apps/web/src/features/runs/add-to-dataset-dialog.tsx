// 'Add to dataset' of the runs list: the selected runs become cases of a dataset (each run's input, and
// with 'Use each run's result as expected' its result as the expected answer), in an existing dataset
// or a new one created first. The runs feature does not import the evaluations feature: it calls the
// endpoints itself, with the evaluation keys of lib/.
import type { Dataset } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { evaluationKeys } from '@/lib/evaluation-keys';

/** The select's value for a dataset created with the runs. */
const NEW_DATASET = '__new__';

type AddToDatasetRequest = {
  executionIds: string[];
  useResultAsExpected: boolean;
  /** An existing dataset, or the name of one to create first. */
  target: { datasetId: string } | { newName: string };
};

/** Creates the dataset when it is new, then adds the runs to it; answers the dataset and the count. */
async function addRunsToDataset(request: AddToDatasetRequest) {
  const datasetId =
    'datasetId' in request.target
      ? request.target.datasetId
      : (await api.call(endpoints.evaluations.createDataset, { body: { name: request.target.newName } })).id;
  return api.call(endpoints.evaluations.itemsFromExecutions, {
    params: { id: datasetId },
    body: { executionIds: request.executionIds, useResultAsExpected: request.useResultAsExpected },
  });
}

function countText(count: number, noun: string) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function AddToDatasetDialog({
  executionIds,
  open,
  onOpenChange,
  onAdded,
}: {
  executionIds: string[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The runs were added (the list clears its selection). */
  onAdded: () => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add to dataset"
      description={`${countText(executionIds.length, 'run')} become cases: each run's input, and optionally its result as the expected answer.`}
      className="sm:max-w-md"
    >
      <AddToDatasetForm
        executionIds={executionIds}
        onDone={() => onOpenChange(false)}
        onAdded={() => {
          onOpenChange(false);
          onAdded();
        }}
      />
    </FormDialog>
  );
}

function AddToDatasetForm({
  executionIds,
  onDone,
  onAdded,
}: {
  executionIds: string[];
  onDone: () => void;
  onAdded: () => void;
}) {
  const queryClient = useQueryClient();
  const datasets = useQuery<Dataset[]>({ queryKey: evaluationKeys.datasets, staleTime: 30_000 });
  const [choice, setChoice] = useState('');
  const [newName, setNewName] = useState('');
  const [useResult, setUseResult] = useState(false);
  const [errors, setErrors] = useState<{ dataset?: string; name?: string }>({});
  const [banner, setBanner] = useState<string | null>(null);
  const datasetId = useId();
  const nameId = useId();
  const resultId = useId();
  // With no dataset yet, the new one is the only choice.
  const creating = choice === NEW_DATASET || (datasets.data?.length === 0 && choice === '');

  const add = useMutation({
    mutationFn: addRunsToDataset,
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: evaluationKeys.datasets });
      const dataset = answer?.dataset;
      toast({
        title: `Added ${countText(answer?.added ?? 0, 'item')} to ${dataset?.name ?? 'the dataset'}`,
        description: dataset && (
          <Link to={`/evaluations/datasets/${encodeURIComponent(dataset.id)}`} className="underline">
            Open dataset
          </Link>
        ),
      });
      onAdded();
    },
    onError: (error) => setBanner(getErrorMessage(error, 'Failed to add the runs')),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const name = newName.trim();
    if (creating ? !name : !choice) {
      setErrors(creating ? { name: 'Name is required' } : { dataset: 'Choose a dataset' });
      return;
    }
    setErrors({});
    add.mutate({
      executionIds,
      useResultAsExpected: useResult,
      target: creating ? { newName: name } : { datasetId: choice },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Add to dataset">
      <FormBanner message={banner} />
      <div className="grid gap-1.5">
        <Label htmlFor={datasetId}>Dataset</Label>
        <Select value={creating ? NEW_DATASET : choice} onValueChange={setChoice}>
          <SelectTrigger id={datasetId} className="w-full" aria-invalid={errors.dataset ? true : undefined}>
            <SelectValue placeholder={datasets.isLoading ? 'Loading…' : 'Choose a dataset'} />
          </SelectTrigger>
          <SelectContent>
            {(datasets.data ?? []).map((dataset) => (
              <SelectItem key={dataset.id} value={dataset.id}>
                {dataset.name}
              </SelectItem>
            ))}
            <SelectItem value={NEW_DATASET}>New dataset…</SelectItem>
          </SelectContent>
        </Select>
        {errors.dataset && <p className="text-xs text-destructive">{errors.dataset}</p>}
      </div>
      {creating && (
        <div className="grid gap-1.5">
          <Label htmlFor={nameId}>Name</Label>
          <Input
            id={nameId}
            value={newName}
            autoComplete="off"
            placeholder="e.g. Support questions"
            aria-invalid={errors.name ? true : undefined}
            onChange={(event) => setNewName(event.target.value)}
          />
          {errors.name && <p className="text-xs text-destructive">{errors.name}</p>}
        </div>
      )}
      <div className="flex items-center gap-2">
        <Checkbox
          id={resultId}
          checked={useResult}
          onCheckedChange={(value) => setUseResult(value === true)}
        />
        <Label htmlFor={resultId} className="font-normal">
          Use each run&apos;s result as expected
        </Label>
      </div>
      <FormDialogActions submitLabel="Add" pending={add.isPending} onCancel={onDone} />
    </form>
  );
}
