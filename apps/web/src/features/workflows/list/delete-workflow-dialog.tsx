import type { Workflow } from '@crewline/contracts';

import { Spinner } from '@/components/spinner';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';

import { useDeleteWorkflow } from '../api/delete-workflow';
import { deleteConfirmationText } from './workflow-list-logic';

/** The delete confirmation (spec part 1 §8): stays open while the DELETE runs. */
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

  const confirm = () => {
    deleteWorkflow.mutate({ id: workflow.id, name: workflow.name }, { onSuccess: () => onOpenChange(false) });
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => !deleteWorkflow.isPending && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Workflow</AlertDialogTitle>
          <AlertDialogDescription className="break-words">
            {deleteConfirmationText(workflow.name)}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleteWorkflow.isPending}>Cancel</AlertDialogCancel>
          <Button
            type="button"
            variant="destructive"
            onClick={confirm}
            disabled={deleteWorkflow.isPending}
            aria-busy={deleteWorkflow.isPending}
          >
            {deleteWorkflow.isPending && <Spinner />}
            {deleteWorkflow.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
