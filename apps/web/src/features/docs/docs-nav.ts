// The documentation's pages, their order in the left navigation and the path each one lives at.
// /docs/api is the exception: the server serves the API reference there, so it is linked with a plain
// <a href> (a full page load), never a client-side route.

export type DocsPageId =
  | 'getting-started'
  | 'concepts'
  | 'workflow-nodes'
  | 'webhooks'
  | 'api-keys'
  | 'mcp-server'
  | 'mcp-tools'
  | 'chat-apps';

interface DocsLink {
  title: string;
  href: string;
  /** One line under the title on the page itself. */
  description: string;
}

export interface DocsPageLink extends DocsLink {
  id: DocsPageId;
}

export interface DocsNavGroup {
  title: string;
  links: readonly (DocsPageLink | DocsExternalLink)[];
}

/** A link the server answers (the browser loads it), not a page of this app. */
export interface DocsExternalLink extends DocsLink {
  external: true;
}

export const DOCS_ROOT = '/docs';
export const API_REFERENCE_HREF = '/docs/api';

export const DOCS_PAGES: readonly DocsPageLink[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    href: DOCS_ROOT,
    description: 'From sign-up to your first reviewed run in a few minutes.',
  },
  {
    id: 'concepts',
    title: 'Concepts',
    href: `${DOCS_ROOT}/concepts`,
    description: 'Agents, tools, workflows, triggers, executions, templates and plans.',
  },
  {
    id: 'workflow-nodes',
    title: 'Workflow nodes',
    href: `${DOCS_ROOT}/workflow-nodes`,
    description:
      'Conditions, tools, transforms, maps, loops, merges, approvals and delays: what each node does, and expressions.',
  },
  {
    id: 'webhooks',
    title: 'Webhooks',
    href: `${DOCS_ROOT}/webhooks`,
    description: 'Start a workflow from any system that can send an HTTP request.',
  },
  {
    id: 'api-keys',
    title: 'API keys',
    href: `${DOCS_ROOT}/api-keys`,
    description: 'Call the Crewline API from your own code and scripts.',
  },
  {
    id: 'mcp-server',
    title: 'MCP server',
    href: `${DOCS_ROOT}/mcp-server`,
    description: 'Publish workflows as tools that Claude, Cursor and other MCP clients can call.',
  },
  {
    id: 'mcp-tools',
    title: 'MCP tools',
    href: `${DOCS_ROOT}/mcp-tools`,
    description: 'Give agents the tools of a remote MCP server.',
  },
  {
    id: 'chat-apps',
    title: 'Chat apps',
    href: `${DOCS_ROOT}/chat-apps`,
    description:
      'Let people talk to a workflow: a hosted page, a widget for your site, and an OpenAI-compatible endpoint.',
  },
];

const page = (id: DocsPageId): DocsPageLink => DOCS_PAGES.find((p) => p.id === id)!;

const API_REFERENCE_LINK: DocsExternalLink = {
  title: 'API reference',
  href: API_REFERENCE_HREF,
  description: 'Every endpoint, its parameters and its answers.',
  external: true,
};

export const DOCS_NAV: readonly DocsNavGroup[] = [
  { title: 'Guide', links: [page('getting-started'), page('concepts'), page('workflow-nodes')] },
  {
    title: 'Integrations',
    links: [page('webhooks'), page('api-keys'), page('mcp-server'), page('mcp-tools'), page('chat-apps')],
  },
  { title: 'Reference', links: [API_REFERENCE_LINK] },
];

export function isExternalDocsLink(link: DocsPageLink | DocsExternalLink): link is DocsExternalLink {
  return 'external' in link && link.external;
}

/** `/docs/`, `/docs//concepts/` → `/docs`, `/docs/concepts`: trailing and doubled slashes dropped. */
export function normalizeDocsPath(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, '/');
  const trimmed = collapsed.length > 1 ? collapsed.replace(/\/+$/, '') : collapsed;
  return trimmed.toLowerCase();
}

/** The page shown at `pathname`, or null when the documentation has no such page. */
export function docsPageForPath(pathname: string): DocsPageLink | null {
  const path = normalizeDocsPath(pathname);
  return DOCS_PAGES.find((p) => p.href === path) ?? null;
}

/** The pages before and after `id` in reading order (the left navigation's order). */
export function adjacentDocsPages(id: DocsPageId): {
  previous: DocsPageLink | null;
  next: DocsPageLink | null;
} {
  const index = DOCS_PAGES.findIndex((p) => p.id === id);
  return {
    previous: index > 0 ? DOCS_PAGES[index - 1] : null,
    next: index >= 0 && index < DOCS_PAGES.length - 1 ? DOCS_PAGES[index + 1] : null,
  };
}

/** The id of a heading: `Webhook trigger (Microsoft 365)` → `webhook-trigger-microsoft-365`. */
export function headingId(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
