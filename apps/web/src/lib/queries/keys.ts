// The one factory of query keys. A key is the request path of a GET endpoint in parts
// (endpoint-key.ts: the default query function joins them again; an object part carries query
// parameters), so a prefix names everything under it: invalidating queryKeys.workflows.all refreshes
// the list, each workflow and its versions. Each key is built from its endpoint's path, which the
// type checker holds to the descriptor's. Features never write a key by hand.
import type { AnalyticsRange, TemplateSort } from '@crewline/contracts';

import { endpointKey, keyHead } from './endpoint-key';

/** Filters of GET /api/executions (an object part: not in the path, sent as the query string). */
export type ExecutionListFilter = {
  workflowId?: string;
  status?: string;
  trigger?: string;
  /** Created at or after this instant (ISO). */
  from?: string;
  /** Created before this instant (ISO). */
  to?: string;
  limit?: number;
};

export const queryKeys = {
  session: endpointKey('/api/auth/me'),
  systemStatus: endpointKey('/api/system/status'),
  providers: endpointKey('/api/llm/providers'),
  tools: endpointKey('/api/tools'),
  /** What uses a tool (its delete dialog). */
  toolUsage: (id: string) => endpointKey('/api/tools/:id/usage', { id }),
  connections: endpointKey('/api/tools/configurations'),
  microsoftStatus: endpointKey('/api/auth/microsoft/status'),
  /** The signed-in user's organizations (the switcher in the navigation). */
  userOrganizations: endpointKey('/api/auth/organizations'),
  /** The organization's plan, trial, usage and limits (GET /api/subscription-status). */
  subscription: endpointKey('/api/subscription-status'),
  /** Which payment provider collects, and Stripe's publishable key (GET /api/billing/config). */
  billingConfig: endpointKey('/api/billing/config'),
  /** The organization's invoices, owners and admins (GET /api/billing/invoices). */
  billingInvoices: endpointKey('/api/billing/invoices'),

  agents: {
    all: endpointKey('/api/agents'),
    detail: (id: string) => endpointKey('/api/agents/:id', { id }),
    tools: (id: string) => endpointKey('/api/agents/:agentId/tools', { agentId: id }),
    /** The knowledge bases the agent searches (its Knowledge section). */
    knowledgeBases: (id: string) => endpointKey('/api/agents/:id/knowledge-bases', { id }),
    /** What uses an agent (its delete dialog). */
    usage: (id: string) => endpointKey('/api/agents/:id/usage', { id }),
    /** Every list of an agent's memories (each search). */
    memories: (id: string) => endpointKey('/api/agents/:id/memories', { id }),
    /** An agent's memories matching `search` (all of them when blank). */
    memorySearch: (id: string, search: string) =>
      endpointKey('/api/agents/:id/memories', { id }, { search: search.trim() || undefined }),
  },

  workflows: {
    all: endpointKey('/api/workflows'),
    detail: (id: string) => endpointKey('/api/workflows/:id', { id }),
    versions: (id: string) => endpointKey('/api/workflows/:id/versions', { id }),
    version: (id: string, version: number) =>
      endpointKey('/api/workflows/:id/versions/:version', { id, version }),
    /** A webhook workflow's secret and URL, read only when a member reveals them. */
    webhookSecret: (id: string) => endpointKey('/api/workflows/:id/webhook-secret', { id }),
  },

  knowledgeBases: {
    /** The list, each knowledge base and its documents. */
    all: endpointKey('/api/knowledge-bases'),
    detail: (id: string) => endpointKey('/api/knowledge-bases/:id', { id }),
    documents: (id: string) => endpointKey('/api/knowledge-bases/:id/documents', { id }),
    /** What searches a knowledge base (its delete dialog). */
    usage: (id: string) => endpointKey('/api/knowledge-bases/:id/usage', { id }),
  },

  executions: {
    /** Every run list and every run. */
    all: endpointKey('/api/executions'),
    /** The organization's newest runs (the server's default page). */
    newest: endpointKey('/api/executions'),
    list: (filter: ExecutionListFilter) => endpointKey('/api/executions', {}, filter),
    /** The Executions tab's list, a page at a time (an infinite query, lib/execution-pages.ts). */
    pages: (filter: ExecutionListFilter) => [...endpointKey('/api/executions', {}, filter), 'pages'] as const,
    detail: (id: string) => endpointKey('/api/executions/:id', { id }),
  },

  templates: {
    /** Every template list (each sort): what seeding, using or saving a template makes stale. */
    all: endpointKey('/api/templates'),
    /** The marketplace's workflow and agent templates in one sort order (GET /api/templates?sort=). */
    list: (sort: TemplateSort) => endpointKey('/api/templates', {}, { sort }),
    /** The shipped library as the landing page shows it (GET /api/templates/library, public). */
    library: endpointKey('/api/templates/library', {}, undefined, keyHead('/api/templates')),
  },

  invitations: {
    /** What an invitee sees before accepting (public). */
    preview: (token: string) => endpointKey('/api/invitations/:token', { token }),
  },

  organizations: {
    /** Every organization figure (stats, activity, analytics): what a run or an agent change makes stale. */
    all: [keyHead('/api/organizations/:orgId')] as const,
    of: (orgId: string) => endpointKey('/api/organizations/:orgId', { orgId }),
    stats: (orgId: string) => endpointKey('/api/organizations/:orgId/stats', { orgId }),
    activity: (orgId: string) => endpointKey('/api/organizations/:orgId/activity', { orgId }),
    /** The team's members; an organization_members_changed event makes it stale. */
    members: (orgId: string) => endpointKey('/api/organizations/:orgId/members', { orgId }),
    /** The pending invitations (admins); refreshed with the members. */
    invitations: (orgId: string) => endpointKey('/api/organizations/:orgId/invitations', { orgId }),
    /** The organization's API keys, never the keys themselves (admins and owners). */
    apiKeys: (orgId: string) => endpointKey('/api/organizations/:orgId/api-keys', { orgId }),
    analytics: (orgId: string, params: { days: AnalyticsRange; tz: string }) =>
      endpointKey('/api/organizations/:orgId/analytics', { orgId }, params),
  },
};
