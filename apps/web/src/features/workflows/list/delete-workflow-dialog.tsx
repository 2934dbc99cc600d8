import type { Workflow } from '@crewline/contracts';

import { ConfirmDeleteDialog } from '@/components/confirm-dialog';

import { useDeleteWorkflow } from '../api/delete-workflow';
import { deleteConfirmationText } from '../workflow-actions';

/** The delete confirmation titled 'Delete Workflow'. */
export function DeleteWorkflowDialog({
  workflow,
  open,
  onOpenChange,
}: {
  workflow: Pick<Workflow, 'id' | 'name'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const deleteWorkflow = useDeleteWorkflow();
  return (
    <ConfirmDeleteDialog
      title="Delete Workflow"
      description={deleteConfirmationText(workflow.name)}
      open={open}
      onOpenChange={onOpenChange}
      pending={deleteWorkflow.isPending}
      onConfirm={() =>
        deleteWorkflow.mutate(
          { id: workflow.id, name: workflow.name },
          { onSuccess: () => onOpenChange(false) },
        )
      }
    />
  );
}
