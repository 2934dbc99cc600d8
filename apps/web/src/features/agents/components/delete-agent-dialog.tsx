import type { Agent } from '@crewline/contracts';

import { DeleteWithUsageDialog } from '@/components/delete-with-usage-dialog';
import { queryKeys } from '@/lib/queries/keys';

import { deleteConfirmationText } from '../agent-display';
import { useDeleteAgent } from '../api/agents';

/** The delete confirmation, with the workflows that use the agent. */
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
    <DeleteWithUsageDialog
      thing="agent"
      usageKey={queryKeys.agents.usage(agent.id)}
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
