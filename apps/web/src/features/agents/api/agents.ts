// Agent queries and mutations. Keys are the request paths (the default query function joins them
// with '/'), so the dashboard's ['/api/agents'] list is the same cache entry as this page's.
import {
  AGENT_TEST_GREETING,
  type Agent,
  type AgentTestResult,
  type CreateAgentInput,
  type UpdateAgentInput,
} from '@crewline/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/api';

import {
  STATUS_TOGGLE_ERROR_TOAST,
  statusToggleToast,
  TEST_ERROR_TOAST,
  testResultToast,
} from '../agent-display';
import { normalizeCatalogue } from '../agent-form-logic';
import type { ProviderCatalogue } from '../types';

export const agentKeys = {
  all: ['/api/agents'] as const,
  detail: (id: string) => ['/api/agents', id] as const,
  tools: (id: string) => ['/api/agents', id, 'tools'] as const,
  toolCatalogue: ['/api/tools'] as const,
  providers: ['/api/llm/providers'] as const,
};

/** The provider catalogue is cached for 5 minutes (spec part 1 §9). */
const PROVIDERS_STALE_TIME = 5 * 60 * 1000;

/** The agent list re-reads data older than this when a page using it is opened again. */
const AGENTS_STALE_TIME = 30_000;

export function useAgents() {
  return useQuery<Agent[]>({ queryKey: agentKeys.all, staleTime: AGENTS_STALE_TIME });
}

export function useAgent(id: string | undefined) {
  return useQuery<Agent>({
    queryKey: agentKeys.detail(id ?? ''),
    enabled: !!id,
    staleTime: AGENTS_STALE_TIME,
  });
}

/** GET /api/llm/providers, normalized; the spec's defaults stand in while it loads or if it fails. */
export function useProviderCatalogue() {
  return useQuery<unknown, Error, ProviderCatalogue>({
    queryKey: agentKeys.providers,
    staleTime: PROVIDERS_STALE_TIME,
    select: normalizeCatalogue,
  });
}

/** After a create, update or delete: the lists (agents here and on the dashboard) and the stats. */
function refreshAgentLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: agentKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['/api/organizations'] });
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAgentInput) => apiRequest<Agent>('POST', '/api/agents', input),
    onSuccess: (agent, input) => {
      if (agent?.id) queryClient.setQueryData(agentKeys.detail(agent.id), agent);
      refreshAgentLists(queryClient);
      toast({ title: 'Agent Created', description: `"${agent?.name ?? input.name}" is ready to work.` });
    },
    onError: () => {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to create agent' });
    },
  });
}

function putAgent(id: string, updates: UpdateAgentInput): Promise<Agent> {
  return apiRequest<Agent>('PUT', `/api/agents/${encodeURIComponent(id)}`, updates);
}

/** The edit page's Save. */
export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, updates }: { id: string; updates: UpdateAgentInput }) => putAgent(id, updates),
    onSuccess: (agent, { id, updates }) => {
      if (agent) queryClient.setQueryData(agentKeys.detail(id), agent);
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

/** The card's Pause / Activate: PUT { status } (spec part 1 §4, §8). */
export function useToggleAgentStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'inactive' }) => putAgent(id, { status }),
    onSuccess: (agent, { id, status }) => {
      if (agent) queryClient.setQueryData(agentKeys.detail(id), agent);
      queryClient.setQueryData<Agent[]>(agentKeys.all, (list) =>
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
      apiRequest<null>('DELETE', `/api/agents/${encodeURIComponent(id)}`),
    onSuccess: (_data, { id, name }) => {
      queryClient.setQueryData<Agent[]>(agentKeys.all, (list) => list?.filter((agent) => agent.id !== id));
      queryClient.removeQueries({ queryKey: agentKeys.detail(id) });
      refreshAgentLists(queryClient);
      toast({ title: 'Agent Deleted', description: `"${name}" has been deleted.` });
    },
    onError: () => {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete agent' });
    },
  });
}

/** POST /api/agents/:id/test with the fixed greeting (spec part 1 §7); the answer becomes a toast. */
export function useTestAgent() {
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<AgentTestResult>('POST', `/api/agents/${encodeURIComponent(id)}/test`, {
        input: AGENT_TEST_GREETING,
      }),
    onSuccess: (result) => {
      toast(result ? testResultToast(result) : TEST_ERROR_TOAST);
    },
    onError: () => toast(TEST_ERROR_TOAST),
  });
}
