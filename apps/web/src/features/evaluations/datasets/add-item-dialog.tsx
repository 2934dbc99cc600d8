// Add item: one case typed by hand (the input as a JSON object, the expected answer as text or JSON,
// tags), added as a new version of the dataset.
import { useId, useState, type FormEvent } from 'react';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';

import { useAddDatasetItems } from '../api/datasets';
import { Field } from '../evaluation-form/field';
import { EMPTY_ITEM, itemFromDraft, type ItemDraft, type ItemDraftErrors } from './item-draft';

export function AddItemDialog({
  datasetId,
  open,
  onOpenChange,
}: {
  datasetId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add item"
      description="What a run starts with, and optionally what it should answer."
      className="sm:max-w-lg"
    >
      <AddItemForm datasetId={datasetId} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function AddItemForm({ datasetId, onDone }: { datasetId: string; onDone: () => void }) {
  const add = useAddDatasetItems(datasetId);
  const [draft, setDraft] = useState<ItemDraft>(EMPTY_ITEM);
  const [errors, setErrors] = useState<ItemDraftErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const jsonId = useId();
  const change = (patch: Partial<ItemDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const checked = itemFromDraft(draft);
    setErrors(checked.errors ?? {});
    if (!checked.item) return;
    add.mutate([checked.item], {
      onSuccess: () => {
        onDone();
        toast({ title: 'Item added' });
      },
      onError: (error) => setBanner(getErrorMessage(error, 'Failed to add the item')),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Add item">
      <FormBanner message={banner} />
      <Field label="Input" error={errors.input} hint="A JSON object: what the run starts with.">
        {(control) => (
          <Textarea
            {...control}
            rows={6}
            className="font-mono text-xs"
            spellCheck={false}
            autoFocus
            value={draft.input}
            onChange={(event) => change({ input: event.target.value })}
          />
        )}
      </Field>
      <Field
        label="Expected"
        error={errors.expected}
        hint="Optional: what the graders compare the answer with."
      >
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            className={draft.expectedIsJson ? 'font-mono text-xs' : undefined}
            spellCheck={draft.expectedIsJson ? false : undefined}
            value={draft.expected}
            onChange={(event) => change({ expected: event.target.value })}
          />
        )}
      </Field>
      <div className="-mt-2 flex items-center gap-2">
        <Checkbox
          id={jsonId}
          checked={draft.expectedIsJson}
          onCheckedChange={(value) => change({ expectedIsJson: value === true })}
        />
        <Label htmlFor={jsonId} className="font-normal">
          Treat as JSON
        </Label>
      </div>
      <Field label="Tags" error={errors.tags} hint="Comma-separated, e.g. billing, refunds">
        {(control) => (
          <Input
            {...control}
            value={draft.tags}
            autoComplete="off"
            onChange={(event) => change({ tags: event.target.value })}
          />
        )}
      </Field>
      <FormDialogActions submitLabel="Add item" pending={add.isPending} onCancel={onDone} />
    </form>
  );
}
