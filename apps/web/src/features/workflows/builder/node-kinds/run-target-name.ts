// The name of what a map item or a loop pass runs, on the canvas (run-target.tsx has its fields).
import type { Agent, RunTarget, Workflow } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from '@/lib/queries/keys';

/** The agent's or the workflow's name, from the lists the builder reads (undefined until then). */
export function useRunTargetName(run: RunTarget | undefined): string | undefined {
  const agentId = run && 'agentId' in run ? run.agentId : undefined;
  const workflowId = run && 'workflowId' in run ? run.workflowId : undefined;
  const agents = useQuery<Agent[]>({
    queryKey: queryKeys.agents.all,
    enabled: !!agentId,
    staleTime: Infinity,
  });
  const workflows = useQuery<Workflow[]>({
    queryKey: queryKeys.workflows.all,
    enabled: !!workflowId,
    staleTime: Infinity,
  });
  if (agentId) return agents.data?.find((a) => a.id === agentId)?.name;
  if (workflowId) return workflows.data?.find((w) => w.id === workflowId)?.name;
  return undefined;
}
