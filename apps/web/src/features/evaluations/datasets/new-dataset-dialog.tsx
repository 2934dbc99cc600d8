// New dataset: a name (unique in the organization) and an optional description; then its page, where
// items are added.
import { createDatasetSchema } from '@crewline/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';

import { useCreateDataset } from '../api/datasets';
import { Field } from '../evaluation-form/field';
import { datasetPath } from './dataset-paths';

export function NewDatasetDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New dataset"
      description="A set of cases: what a run starts with, and what it should answer."
      className="sm:max-w-lg"
    >
      <NewDatasetForm onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function NewDatasetForm({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const create = useCreateDataset();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ name?: string; description?: string }>({});
  const [banner, setBanner] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const body = { name, description: description.trim() || null };
    const checked = createDatasetSchema.safeParse(body);
    if (!checked.success) {
      const found: typeof errors = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0] === 'description' ? 'description' : 'name';
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(body, {
      onSuccess: (dataset) => {
        onDone();
        toast({ title: 'Dataset created', description: `"${dataset?.name ?? name}" is ready for items.` });
        if (dataset?.id) void navigate(datasetPath(dataset.id));
      },
      onError: (error) => {
        const parsed = parseApiError(error);
        // A taken name (409) belongs under the name.
        if (parsed.status === 409 && parsed.message) setErrors({ name: parsed.message });
        else setBanner(parsed.message ?? 'Failed to create the dataset');
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="New dataset">
      <FormBanner message={banner} />
      <Field label="Name" error={errors.name}>
        {(control) => (
          <Input
            {...control}
            value={name}
            autoComplete="off"
            autoFocus
            placeholder="e.g. Support questions"
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <Field label="Description" error={errors.description}>
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            value={description}
            placeholder="What its cases cover"
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </Field>
      <FormDialogActions submitLabel="Create dataset" pending={create.isPending} onCancel={onDone} />
    </form>
  );
}
