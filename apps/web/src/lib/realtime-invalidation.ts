// The one place where realtime events refresh cached server data. Events carry ids only, so the
// screens refetch what they show. Keys come from lib/queries/keys.ts, shared by features:
// - queryKeys.executions.all       the run lists (dashboard, workflows page) and one run: an execution
//                                  event re-reads only that run and patches it into the lists
// - queryKeys.organizations.all    the organization's stats, activity and analytics
// - queryKeys.agents.all           the agent list (agents page, dashboard, builder's agent panel)
// - queryKeys.workflows.all        the workflow list and each workflow (a trigger's last error)
// - queryKeys.microsoftStatus      the Microsoft 365 connection (Settings shows Reconnect when broken)
// - queryKeys.knowledgeBases.all   the knowledge bases and their documents (a document's status changed)
// - queryKeys.organizations.members(orgId), .invitations(orgId)
//                                  the team's members and pending invitations (someone joined, left,
//                                  was invited or changed role)
// - queryKeys.approvals.all        every approval list and approval (the Inbox, its count in the
//                                  navigation, a run's approvals): one was requested or decided
// - queryKeys.session              the viewer's own session when the event names them (their role
//                                  changed): the role shown and the controls it allows update at once
import type { RealtimeEvent } from '@crewline/contracts';
import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

import { refreshOneExecution } from './execution-summaries';
import { queryKeys } from './queries/keys';

const organizations: InvalidateQueryFilters = { queryKey: queryKeys.organizations.all };
// The list only: refetching an agent's detail could reset a form someone is editing.
const agentList: InvalidateQueryFilters = { queryKey: queryKeys.agents.all, exact: true };
// The builder loads a workflow once, so refetching one never resets a canvas being edited.
const workflows: InvalidateQueryFilters = { queryKey: queryKeys.workflows.all };
const microsoftStatus: InvalidateQueryFilters = { queryKey: queryKeys.microsoftStatus };
// A document's status changed: the list's counts and sizes, the knowledge base, its documents.
const knowledgeBases: InvalidateQueryFilters = { queryKey: queryKeys.knowledgeBases.all };
// An approval was requested or decided: the Inbox, the navigation's count and the run's approvals.
const approvals: InvalidateQueryFilters = { queryKey: queryKeys.approvals.all };

/**
 * The caches an event makes stale (empty for step progress and streamed answers, which the run views
 * show themselves). `viewerId`: the signed-in user, for events about one member.
 */
export function invalidationsFor(event: RealtimeEvent, viewerId?: string): InvalidateQueryFilters[] {
  switch (event.type) {
    case 'workflow_execution_created':
    case 'workflow_execution_started':
    case 'workflow_execution_completed':
    case 'workflow_execution_failed':
    case 'workflow_execution_waiting':
      return [organizations];
    // A cancelled run's pending approval is cancelled with it.
    case 'workflow_execution_cancelled':
      return [organizations, approvals];
    case 'approval_requested':
    case 'approval_decided':
      return [approvals];
    case 'agent_created':
    case 'agent_updated':
    case 'agent_deleted':
      return [agentList, organizations];
    case 'workflow_trigger_failed':
      return [workflows];
    case 'microsoft_connection_broken':
      return [microsoftStatus];
    case 'knowledge_document_updated':
      return [knowledgeBases];
    case 'organization_members_changed':
      return [
        { queryKey: queryKeys.organizations.members(event.organizationId) },
        { queryKey: queryKeys.organizations.invitations(event.organizationId) },
        // The viewer's own role changed: /api/auth/me says the new one.
        ...(viewerId && event.userId === viewerId ? [{ queryKey: queryKeys.session }] : []),
      ];
    case 'subscription_updated':
      // The session carries the organization's plan and trial end too; a paid or failed invoice
      // (a Stripe webhook) is a subscription change as well.
      return [
        { queryKey: queryKeys.subscription },
        { queryKey: queryKeys.session },
        { queryKey: queryKeys.billingInvoices },
      ];
    case 'execution_node_started':
    case 'execution_node_completed':
    case 'execution_node_failed':
    case 'execution_node_skipped':
    case 'execution_node_waiting':
    case 'execution_node_items':
    case 'execution_node_delta':
      return [];
  }
}

export function invalidateForRealtimeEvent(queryClient: QueryClient, event: RealtimeEvent): void {
  const viewer = queryClient.getQueryData<{ user?: { id?: string } }>(queryKeys.session);
  for (const filters of invalidationsFor(event, viewer?.user?.id))
    void queryClient.invalidateQueries(filters);
  if (event.type.startsWith('workflow_execution_') && 'executionId' in event) {
    void refreshOneExecution(queryClient, event.executionId, {
      add: event.type === 'workflow_execution_created',
    });
  }
}
