// Agent mutations. The reads (useAgents, useAgent) are shared from lib/queries/agents.ts; the
// mutations update and invalidate the same queryKeys entries, so every screen listing agents follows.
import {
  AGENT_TEST_GREETING,
  type Agent,
  type CreateAgentInput,
  type UpdateAgentInput,
} from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { readPlanLimitError } from '@/lib/billing';
import { queryKeys } from '@/lib/queries/keys';

import {
  STATUS_TOGGLE_ERROR_TOAST,
  statusToggleToast,
  TEST_ERROR_TOAST,
  testResultToast,
} from '../agent-display';

/** After a create, update or delete: the lists (agents here and on the dashboard) and the stats. */
function refreshAgentLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all });
  void queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all });
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAgentInput) => api.call(endpoints.agents.create, { body: input }),
    onSuccess: (agent, input) => {
      if (agent?.id) queryClient.setQueryData(queryKeys.agents.detail(agent.id), agent);
      refreshAgentLists(queryClient);
      toast({ title: 'Agent Created', description: `"${agent?.name ?? input.name}" is ready to work.` });
    },
    onError: (error) => {
      // A plan limit: the dialog shows the server's message with 'Upgrade' instead.
      if (readPlanLimitError(error)) return;
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to create agent' });
    },
  });
}

function putAgent(id: string, updates: UpdateAgentInput): Promise<Agent> {
  return api.call(endpoints.agents.update, { params: { id }, body: updates });
}

/** The edit page's Save. */
export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, updates }: { id: string; updates: UpdateAgentInput }) => putAgent(id, updates),
    onSuccess: (agent, { id, updates }) => {
      if (agent) queryClient.setQueryData(queryKeys.agents.detail(id), agent);
      refreshAgentLists(queryClient);
      toast({
        title: 'Agent Updated',
        description: `"${agent?.name ?? updates.name ?? 'Agent'}" has been saved.`,
      });
    },
    onError: () => {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to update agent' });
    },
  });
}

/** The card's Pause / Activate: PUT { status }. */
export function useToggleAgentStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'inactive' }) => putAgent(id, { status }),
    onSuccess: (agent, { id, status }) => {
      if (agent) queryClient.setQueryData(queryKeys.agents.detail(id), agent);
      queryClient.setQueryData<Agent[]>(queryKeys.agents.all, (list) =>
        list?.map((item) => (item.id === id ? { ...item, ...(agent ?? {}), status } : item)),
      );
      refreshAgentLists(queryClient);
      toast(statusToggleToast(status));
    },
    onError: () => toast(STATUS_TOGGLE_ERROR_TOAST),
  });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      api.call(endpoints.agents.remove, { params: { id } }),
    onSuccess: (_data, { id, name }) => {
      queryClient.setQueryData<Agent[]>(queryKeys.agents.all, (list) =>
        list?.filter((agent) => agent.id !== id),
      );
      queryClient.removeQueries({ queryKey: queryKeys.agents.detail(id) });
      refreshAgentLists(queryClient);
      // Workflows with a step on it now need attention (their list and detail say so).
      void queryClient.invalidateQueries({ queryKey: queryKeys.workflows.all });
      toast({ title: 'Agent Deleted', description: `"${name}" has been deleted.` });
    },
    onError: () => {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete agent' });
    },
  });
}

/** POST /api/agents/:id/test with the fixed greeting; the answer becomes a toast (docs/product-rules.md). */
export function useTestAgent() {
  return useMutation({
    mutationFn: (id: string) =>
      api.call(endpoints.agents.test, { params: { id }, body: { input: AGENT_TEST_GREETING } }),
    onSuccess: (result) => {
      toast(result ? testResultToast(result) : TEST_ERROR_TOAST);
    },
    onError: () => toast(TEST_ERROR_TOAST),
  });
}
