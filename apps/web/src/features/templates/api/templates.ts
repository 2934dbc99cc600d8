// The Template Marketplace's requests: the list (GET /api/templates?sort=), Load Sample Templates
// (POST /api/templates/seed) and Use Template (POST /api/templates/:id/create and
// /api/templates/agents/:id/create). Using a template makes agents (their agent_created events
// refresh the agent lists elsewhere) and counts a use, so the template lists are re-read too.
import type { TemplateSort, TemplatesResponse } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { readPlanLimitError } from '@/lib/billing';
import { queryKeys } from '@/lib/queries/keys';

import {
  AGENT_CREATE_FAILED,
  agentCopyName,
  agentCreatedToast,
  creationFailedToast,
  SEED_FAILED_TOAST,
  seededToast,
  WORKFLOW_CREATE_FAILED,
  workflowCopyName,
  workflowCreatedToast,
} from '../template-texts';

/** The library changes only when seeded or when someone uses or saves a template. */
const TEMPLATES_STALE_TIME = 30_000;

/**
 * Both kinds of templates in one sort order. Changing the sort keeps the previous answer on screen
 * (`isPlaceholderData`) until the new one arrives, so the grid does not flash.
 */
export function useTemplates(sort: TemplateSort) {
  return useQuery<TemplatesResponse>({
    queryKey: queryKeys.templates.list(sort),
    staleTime: TEMPLATES_STALE_TIME,
    placeholderData: keepPreviousData,
  });
}

function refreshTemplates(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.templates.all });
}

export function useSeedTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(endpoints.templates.seed),
    onSuccess: (result) => {
      refreshTemplates(queryClient);
      toast(seededToast(result));
    },
    onError: () => toast(SEED_FAILED_TOAST),
  });
}

/**
 * Use Template on a workflow template: a draft '{name} (Copy)'. A 402 plan limit is the caller's to
 * show (the reason with a way to upgrade); any other failure is a 'Creation Failed' toast.
 */
export function useCreateFromWorkflowTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: { id: string; name: string }) =>
      api.call(endpoints.templates.createWorkflow, {
        params: { templateId: template.id },
        body: { name: workflowCopyName(template) },
      }),
    onSuccess: (result, template) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.workflows.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all, exact: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all });
      refreshTemplates(queryClient);
      toast(
        workflowCreatedToast(result?.workflow.name ?? workflowCopyName(template), result?.agents.length ?? 0),
      );
    },
    onError: (error) => {
      if (readPlanLimitError(error)) return;
      toast(creationFailedToast(getErrorMessage(error, ''), WORKFLOW_CREATE_FAILED));
    },
  });
}

/** Use Template on an agent template: an agent named as the template. */
export function useCreateFromAgentTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: { id: string; name: string }) =>
      api.call(endpoints.templates.createAgent, {
        params: { templateId: template.id },
        body: { name: agentCopyName(template) },
      }),
    onSuccess: (agent, template) => {
      if (agent?.id) queryClient.setQueryData(queryKeys.agents.detail(agent.id), agent);
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all, exact: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all });
      refreshTemplates(queryClient);
      toast(agentCreatedToast(agent?.name ?? agentCopyName(template)));
    },
    onError: (error) => {
      if (readPlanLimitError(error)) return;
      toast(creationFailedToast(getErrorMessage(error, ''), AGENT_CREATE_FAILED));
    },
  });
}
