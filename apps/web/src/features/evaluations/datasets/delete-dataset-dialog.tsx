import type { Dataset } from '@crewline/contracts';

import { ConfirmDeleteDialog } from '@/components/confirm-dialog';

import { useDeleteDataset } from '../api/datasets';

/** Confirmation before deleting a dataset, which takes its evaluations and their runs with it. */
export function DeleteDatasetDialog({
  dataset,
  open,
  onOpenChange,
  onDeleted,
}: {
  dataset: Pick<Dataset, 'id' | 'name'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteDataset();
  return (
    <ConfirmDeleteDialog
      title={`Delete "${dataset.name}"?`}
      description="Its evaluations and their runs are deleted too."
      open={open}
      onOpenChange={onOpenChange}
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(
          { id: dataset.id, name: dataset.name },
          {
            onSuccess: () => {
              onOpenChange(false);
              onDeleted();
            },
          },
        )
      }
    />
  );
}
