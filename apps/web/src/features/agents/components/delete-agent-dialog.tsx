import type { Agent } from '@crewline/contracts';

import { ConfirmDeleteDialog } from '@/components/confirm-dialog';

import { deleteConfirmationText } from '../agent-display';
import { useDeleteAgent } from '../api/agents';

/** The delete confirmation. */
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
  return (
    <ConfirmDeleteDialog
      title="Delete Agent"
      description={deleteConfirmationText(agent.name)}
      open={open}
      onOpenChange={onOpenChange}
      pending={deleteAgent.isPending}
      onConfirm={() =>
        deleteAgent.mutate({ id: agent.id, name: agent.name }, { onSuccess: () => onOpenChange(false) })
      }
    />
  );
}
