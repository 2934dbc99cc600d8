// The tools connected to one agent, and the organization's tool catalogue to connect from. The
// toasts live here (not in the rows) because a row may be gone by the time its request answers.
import type { ToolApprovalPolicy } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

import { mcpLinkToolsBody, toggleToolBody, type ToolConfig } from '../tool-config';
import type { AgentToolLink, Tool } from '../types';

export function linkName(link: AgentToolLink): string {
  return link.tool?.name || 'Tool';
}

export function useAgentTools(agentId: string) {
  return useQuery<AgentToolLink[]>({ queryKey: queryKeys.agents.tools(agentId) });
}

export function useConnectTool(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tool, config }: { tool: Pick<Tool, 'id' | 'name'>; config: ToolConfig }) =>
      api.call(endpoints.tools.link, { params: { agentId, toolId: tool.id }, body: { config } }),
    onSuccess: (_link, { tool }) => {
      toast({ title: 'Tool connected', description: `${tool.name} is now available to this agent.` });
    },
    // A refused configuration (a key or an address: docs/security.md) says which field.
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, 'Failed to connect tool to agent.'),
      });
    },
    onSettled: () => {
      // The card's tool badges may change with the links.
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all, exact: true });
      return queryClient.invalidateQueries({ queryKey: queryKeys.agents.tools(agentId) });
    },
  });
}

/** The enable switch: PUT { config: {...config, isEnabled}, isEnabled }, optimistic, rolled back on failure. */
export function useToggleTool(agentId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.agents.tools(agentId);
  return useMutation({
    mutationFn: ({ link, isEnabled }: { link: AgentToolLink; isEnabled: boolean }) =>
      api.call(endpoints.tools.updateLink, {
        params: { agentId, toolId: link.toolId },
        body: toggleToolBody(link, isEnabled),
      }),
    onMutate: async ({ link, isEnabled }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<AgentToolLink[]>(key);
      queryClient.setQueryData<AgentToolLink[]>(key, (links) =>
        links?.map((item) => (item.id === link.id ? { ...item, isEnabled } : item)),
      );
      return { previous };
    },
    onSuccess: (_result, { link, isEnabled }) => {
      toast({
        title: 'Tool Updated',
        description: `${linkName(link)} is now ${isEnabled ? 'enabled' : 'disabled'} for this agent.`,
      });
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to update tool configuration.' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/**
 * The link's "Ask before running" select: PUT { approval } (the switch and settings stay as they are),
 * optimistic, then the saved link as the server answers it; rolled back on failure.
 */
export function useSetToolApproval(agentId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.agents.tools(agentId);
  const replace = (saved: Pick<AgentToolLink, 'id'> & Partial<AgentToolLink>) =>
    queryClient.setQueryData<AgentToolLink[]>(key, (links) =>
      links?.map((item) => (item.id === saved.id ? { ...item, ...saved } : item)),
    );
  return useMutation({
    mutationFn: ({ link, approval }: { link: AgentToolLink; approval: ToolApprovalPolicy }) =>
      api.call(endpoints.tools.updateLink, { params: { agentId, toolId: link.toolId }, body: { approval } }),
    onMutate: async ({ link, approval }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<AgentToolLink[]>(key);
      replace({ id: link.id, approval });
      return { previous };
    },
    onSuccess: (saved) => replace(saved),
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to update tool configuration.' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/**
 * An MCP link's per-tool switch: PUT { config: { ...config, tools } } (no `tools`: every tool the
 * connection allows), optimistic, then the saved link; rolled back on failure.
 */
export function useSetLinkMcpTool(agentId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.agents.tools(agentId);
  const replace = (saved: Pick<AgentToolLink, 'id'> & Partial<AgentToolLink>) =>
    queryClient.setQueryData<AgentToolLink[]>(key, (links) =>
      links?.map((item) => (item.id === saved.id ? { ...item, ...saved } : item)),
    );
  return useMutation({
    mutationFn: ({ link, allowed, name, on }: McpToolSwitch) =>
      api.call(endpoints.tools.updateLink, {
        params: { agentId, toolId: link.toolId },
        body: mcpLinkToolsBody(link, allowed, name, on),
      }),
    onMutate: async ({ link, allowed, name, on }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<AgentToolLink[]>(key);
      replace({ id: link.id, config: mcpLinkToolsBody(link, allowed, name, on).config });
      return { previous };
    },
    onSuccess: (saved) => replace(saved),
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to update tool configuration.' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
type McpToolSwitch = { link: AgentToolLink; allowed: readonly string[]; name: string; on: boolean };

export function useDisconnectTool(agentId: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.agents.tools(agentId);
  return useMutation({
    mutationFn: (link: AgentToolLink) =>
      api.call(endpoints.tools.unlink, { params: { agentId, toolId: link.toolId } }),
    onSuccess: (_data, link) => {
      queryClient.setQueryData<AgentToolLink[]>(key, (links) => links?.filter((item) => item.id !== link.id));
      toast({ title: 'Tool disconnected', description: `${linkName(link)} was removed from this agent.` });
    },
    onError: () => {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to disconnect tool from agent.' });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents.all, exact: true });
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
