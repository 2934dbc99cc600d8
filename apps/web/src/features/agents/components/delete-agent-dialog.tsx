import type { Agent } from '@crewline/contracts';

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

import { deleteConfirmationText } from '../agent-display';
import { useDeleteAgent } from '../api/agents';

/** The delete confirmation (spec part 2 §2): stays open while the DELETE runs. */
export function DeleteAgentDialog({
  agent,
  open,
  onOpenChange,
}: {
  agent: Pick<Agent, 'id' | 'name'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const deleteAgent = useDeleteAgent();

  const confirm = () => {
    deleteAgent.mutate({ id: agent.id, name: agent.name }, { onSuccess: () => onOpenChange(false) });
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => !deleteAgent.isPending && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Agent</AlertDialogTitle>
          <AlertDialogDescription className="break-words">
            {deleteConfirmationText(agent.name)}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleteAgent.isPending}>Cancel</AlertDialogCancel>
          <Button
            type="button"
            variant="destructive"
            onClick={confirm}
            disabled={deleteAgent.isPending}
            aria-busy={deleteAgent.isPending}
          >
            {deleteAgent.isPending && <Spinner />}
            {deleteAgent.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
