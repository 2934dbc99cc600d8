// The one factory of query keys. A key is the request path of a GET endpoint in parts
// (endpoint-key.ts: the default query function joins them again; an object part carries query
// parameters), so a prefix names everything under it: invalidating queryKeys.workflows.all refreshes
// the list, each workflow and its versions. Each key is built from its endpoint's path as
// @crewline/contracts/paths holds it (the descriptors take theirs from there too), and the type
// checker accepts only a GET descriptor's. Features never write a key by hand.
import type { AnalyticsRange, CostGrouping, TemplateSort } from '@crewline/contracts';
import * as paths from '@crewline/contracts/paths';

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

/** Filters of GET /api/audit (an object part, sent as the query string). */
export type AuditListFilter = {
  /** At or after this instant (ISO). */
  from?: string;
  /** Before this instant (ISO). */
  to?: string;
  action?: string;
  actorId?: string;
  limit?: number;
};

/** Filters of GET /api/approvals (an object part, sent as the query string). */
export type ApprovalListFilter = {
  status?: 'pending' | 'decided';
  /** Only those the viewer may decide ('true'). */
  mine?: 'true';
  executionId?: string;
};

export const queryKeys = {
  session: endpointKey(paths.auth.me),
  systemStatus: endpointKey(paths.system.status),
  providers: endpointKey(paths.connections.providers),
  tools: endpointKey(paths.tools.list),
  /** What uses a tool (its delete dialog). */
  toolUsage: (id: string) => endpointKey(paths.tools.usage, { id }),
  connections: endpointKey(paths.connections.list),
  microsoftStatus: endpointKey(paths.microsoft.status),
  /** The signed-in user's organizations (the switcher in the navigation). */
  userOrganizations: endpointKey(paths.auth.organizations),
  /** The organization's plan, trial, usage and limits (GET /api/subscription-status). */
  subscription: endpointKey(paths.billing.status),
  /** Which payment provider collects, and Stripe's publishable key (GET /api/billing/config). */
  billingConfig: endpointKey(paths.billing.config),
  /** The organization's invoices, owners and admins (GET /api/billing/invoices). */
  billingInvoices: endpointKey(paths.billing.invoices),
  /** The caller's organization's settings: its trusted sender domains (GET /api/organization/settings). */
  organizationSettings: endpointKey(paths.organizationSettings.get),
  /** The model prices in force for the caller's organization (GET /api/prices, Settings → Costs). */
  prices: endpointKey(paths.prices.list),

  costs: {
    /** Every costs report (each range and grouping): what a run or Refresh makes stale. */
    all: endpointKey(paths.costs.usage),
    /** The organization's model spend in [from, to), grouped (GET /api/usage/costs, Analytics → Costs). */
    usage: (query: { from: string; to: string; groupBy: CostGrouping; tz: string }) =>
      endpointKey(paths.costs.usage, {}, query),
  },
  /** The organization's monthly budget and this month's spend (the budget banner, Settings → Costs). */
  organizationBudget: endpointKey(paths.costs.organizationBudget),

  agents: {
    all: endpointKey(paths.agents.list),
    detail: (id: string) => endpointKey(paths.agents.get, { id }),
    tools: (id: string) => endpointKey(paths.tools.agentTools, { agentId: id }),
    /** The knowledge bases the agent searches (its Knowledge section). */
    knowledgeBases: (id: string) => endpointKey(paths.agents.knowledgeBases, { id }),
    /** What uses an agent (its delete dialog). */
    usage: (id: string) => endpointKey(paths.agents.usage, { id }),
    /** Every list of an agent's memories (each search). */
    memories: (id: string) => endpointKey(paths.memory.list, { id }),
    /** An agent's memories matching `search` (all of them when blank). */
    memorySearch: (id: string, search: string) =>
      endpointKey(paths.memory.list, { id }, { search: search.trim() || undefined }),
  },

  workflows: {
    all: endpointKey(paths.workflows.list),
    detail: (id: string) => endpointKey(paths.workflows.get, { id }),
    versions: (id: string) => endpointKey(paths.workflows.versions, { id }),
    version: (id: string, version: number) => endpointKey(paths.workflows.version, { id, version }),
    /** A webhook workflow's secret and URL, read only when a member reveals them. */
    webhookSecret: (id: string) => endpointKey(paths.webhooks.secret, { id }),
  },

  knowledgeBases: {
    /** The list, each knowledge base and its documents. */
    all: endpointKey(paths.knowledge.list),
    detail: (id: string) => endpointKey(paths.knowledge.get, { id }),
    documents: (id: string) => endpointKey(paths.knowledge.documents, { id }),
    /** What searches a knowledge base (its delete dialog). */
    usage: (id: string) => endpointKey(paths.knowledge.usage, { id }),
  },

  executions: {
    /** Every run list and every run. */
    all: endpointKey(paths.executions.list),
    /** The organization's newest runs (the server's default page). */
    newest: endpointKey(paths.executions.list),
    list: (filter: ExecutionListFilter) => endpointKey(paths.executions.list, {}, filter),
    /** The Executions tab's list, a page at a time (an infinite query, lib/execution-pages.ts). */
    pages: (filter: ExecutionListFilter) =>
      [...endpointKey(paths.executions.list, {}, filter), 'pages'] as const,
    detail: (id: string) => endpointKey(paths.executions.get, { id }),
  },

  /** Settings → Audit, a page at a time (an infinite query, features/settings/api/audit.ts). */
  audit: {
    pages: (filter: AuditListFilter) => [...endpointKey(paths.audit.list, {}, filter), 'pages'] as const,
  },

  approvals: {
    /** Every approval list and every approval: what an approval event makes stale. */
    all: endpointKey(paths.approvals.list),
    /** Approvals by status, the viewer's only (`mine`), or one run's (`executionId`). */
    list: (filter: ApprovalListFilter) => endpointKey(paths.approvals.list, {}, filter),
    detail: (id: string) => endpointKey(paths.approvals.get, { id }),
  },

  templates: {
    /** Every template list (each sort): what seeding, using or saving a template makes stale. */
    all: endpointKey(paths.templates.list),
    /** The marketplace's workflow and agent templates in one sort order (GET /api/templates?sort=). */
    list: (sort: TemplateSort) => endpointKey(paths.templates.list, {}, { sort }),
    /** The shipped library as the landing page shows it (GET /api/templates/library, public). */
    library: endpointKey(paths.templates.library, {}, undefined, keyHead(paths.templates.list)),
  },

  /** What an emailed Approve or Reject link decides (public: the link is the credential). */
  approvalLink: (token: string) => endpointKey(paths.approvalLinks.get, { token }),

  invitations: {
    /** What an invitee sees before accepting (public). */
    preview: (token: string) => endpointKey(paths.organizations.previewInvitation, { token }),
  },

  organizations: {
    /** Every organization figure (stats, activity, analytics): what a run or an agent change makes stale. */
    all: [keyHead(paths.organizations.get)] as const,
    of: (orgId: string) => endpointKey(paths.organizations.get, { orgId }),
    stats: (orgId: string) => endpointKey(paths.organizations.stats, { orgId }),
    activity: (orgId: string) => endpointKey(paths.organizations.activity, { orgId }),
    /** The team's members; an organization_members_changed event makes it stale. */
    members: (orgId: string) => endpointKey(paths.organizations.members, { orgId }),
    /** The pending invitations (admins); refreshed with the members. */
    invitations: (orgId: string) => endpointKey(paths.organizations.invitations, { orgId }),
    /** The organization's API keys, never the keys themselves (admins and owners). */
    apiKeys: (orgId: string) => endpointKey(paths.apiKeys.list, { orgId }),
    analytics: (orgId: string, params: { days: AnalyticsRange; tz: string }) =>
      endpointKey(paths.organizations.analytics, { orgId }, params),
  },
};
