// The one factory of query keys. A key is the request path split into parts (the default query
// function joins the string and number parts with '/'; an object part carries query parameters), so
// a prefix names everything under it: invalidating ['/api/workflows'] refreshes the list, each
// workflow and its versions. Features never write a key by hand.
import type { AnalyticsRange, TemplateSort } from '@crewline/contracts';

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
  session: ['/api/auth/me'] as const,
  systemStatus: ['/api/system/status'] as const,
  providers: ['/api/llm/providers'] as const,
  tools: ['/api/tools'] as const,
  /** What uses a tool (its delete dialog). */
  toolUsage: (id: string) => ['/api/tools', id, 'usage'] as const,
  toolConfigurations: ['/api/tools/configurations'] as const,
  microsoftStatus: ['/api/auth/microsoft/status'] as const,
  /** The signed-in user's organizations (the switcher in the navigation). */
  userOrganizations: ['/api/auth/organizations'] as const,
  /** The organization's plan, trial, usage and limits (GET /api/subscription-status). */
  subscription: ['/api/subscription-status'] as const,
  /** Which payment provider collects, and Stripe's publishable key (GET /api/billing/config). */
  billingConfig: ['/api/billing/config'] as const,
  /** The organization's invoices, owners and admins (GET /api/billing/invoices). */
  billingInvoices: ['/api/billing/invoices'] as const,

  agents: {
    all: ['/api/agents'] as const,
    detail: (id: string) => ['/api/agents', id] as const,
    tools: (id: string) => ['/api/agents', id, 'tools'] as const,
    /** The knowledge bases the agent searches (its Knowledge section). */
    knowledgeBases: (id: string) => ['/api/agents', id, 'knowledge-bases'] as const,
    /** What uses an agent (its delete dialog). */
    usage: (id: string) => ['/api/agents', id, 'usage'] as const,
    /** Every list of an agent's memories (each search). */
    memories: (id: string) => ['/api/agents', id, 'memories'] as const,
    /** An agent's memories matching `search` (all of them when blank). */
    memorySearch: (id: string, search: string) =>
      ['/api/agents', id, 'memories', { search: search.trim() || undefined }] as const,
  },

  workflows: {
    all: ['/api/workflows'] as const,
    detail: (id: string) => ['/api/workflows', id] as const,
    versions: (id: string) => ['/api/workflows', id, 'versions'] as const,
    version: (id: string, version: number) => ['/api/workflows', id, 'versions', version] as const,
    /** A webhook workflow's secret and URL, read only when a member reveals them. */
    webhookSecret: (id: string) => ['/api/workflows', id, 'webhook-secret'] as const,
  },

  knowledgeBases: {
    /** The list, each knowledge base and its documents. */
    all: ['/api/knowledge-bases'] as const,
    detail: (id: string) => ['/api/knowledge-bases', id] as const,
    documents: (id: string) => ['/api/knowledge-bases', id, 'documents'] as const,
    /** What searches a knowledge base (its delete dialog). */
    usage: (id: string) => ['/api/knowledge-bases', id, 'usage'] as const,
  },

  executions: {
    /** Every run list and every run. */
    all: ['/api/executions'] as const,
    /** The organization's newest runs (the server's default page). */
    newest: ['/api/executions'] as const,
    list: (filter: ExecutionListFilter) => ['/api/executions', filter] as const,
    /** The Executions tab's list, a page at a time (an infinite query, lib/execution-pages.ts). */
    pages: (filter: ExecutionListFilter) => ['/api/executions', filter, 'pages'] as const,
    detail: (id: string) => ['/api/executions', id] as const,
  },

  templates: {
    /** Every template list (each sort): what seeding, using or saving a template makes stale. */
    all: ['/api/templates'] as const,
    /** The marketplace's workflow and agent templates in one sort order (GET /api/templates?sort=). */
    list: (sort: TemplateSort) => ['/api/templates', { sort }] as const,
    /** The shipped library as the landing page shows it (GET /api/templates/library, public). */
    library: ['/api/templates', 'library'] as const,
  },

  invitations: {
    /** What an invitee sees before accepting (public). */
    preview: (token: string) => ['/api/invitations', token] as const,
  },

  organizations: {
    /** Every organization figure (stats, activity, analytics): what a run or an agent change makes stale. */
    all: ['/api/organizations'] as const,
    of: (orgId: string) => ['/api/organizations', orgId] as const,
    stats: (orgId: string) => ['/api/organizations', orgId, 'stats'] as const,
    activity: (orgId: string) => ['/api/organizations', orgId, 'activity'] as const,
    /** The team's members; an organization_members_changed event makes it stale. */
    members: (orgId: string) => ['/api/organizations', orgId, 'members'] as const,
    /** The pending invitations (admins); refreshed with the members. */
    invitations: (orgId: string) => ['/api/organizations', orgId, 'invitations'] as const,
    /** The organization's API keys, never the keys themselves (admins and owners). */
    apiKeys: (orgId: string) => ['/api/organizations', orgId, 'api-keys'] as const,
    analytics: (orgId: string, params: { days: AnalyticsRange; tz: string }) =>
      ['/api/organizations', orgId, 'analytics', params] as const,
  },
};
