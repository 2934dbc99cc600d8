// Pure rules of the Template Marketplace (docs/product-rules.md, Templates): search, category chips,
// the featured picks, the cards' labels, the preview's graph and the toasts' texts. No React, so the
// vitest 'web' project tests them directly.
import {
  templateCategories,
  type AgentTemplate,
  type SeedTemplatesResponse,
  type TemplateSort,
  type WorkflowNode,
  type WorkflowTemplate,
} from '@crewline/contracts';

import type { GraphAgent } from '@/components/workflow-graph/graph-view-logic';

/** Every card shows the same fixed rating (the server sorts 'Highest Rated' by name for that reason). */
export const TEMPLATE_RATING = 4.5;

export const ALL_CATEGORIES = 'all';

export const SORT_OPTIONS: readonly { value: TemplateSort; label: string }[] = [
  { value: 'rating', label: 'Highest Rated' },
  { value: 'popular', label: 'Most Popular' },
  { value: 'recent', label: 'Most Recent' },
];

export interface TemplateFilters {
  search: string;
  /** A category, or 'all'. */
  category: string;
  /** Applied by the server (GET /api/templates?sort=). */
  sort: TemplateSort;
}

export const DEFAULT_TEMPLATE_FILTERS: TemplateFilters = {
  search: '',
  category: ALL_CATEGORIES,
  sort: 'rating',
};

export function hasActiveFilters(filters: TemplateFilters): boolean {
  return (
    filters.search.trim() !== '' ||
    filters.category !== DEFAULT_TEMPLATE_FILTERS.category ||
    filters.sort !== DEFAULT_TEMPLATE_FILTERS.sort
  );
}

/** What search and the category chips look at, of a workflow or an agent template. */
export type FilterableTemplate = Pick<WorkflowTemplate, 'name' | 'description' | 'category' | 'tags'>;

/** Every word of the search appears in the name, the description or a tag (any case). */
export function matchesSearch(template: FilterableTemplate, search: string): boolean {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [template.name, template.description ?? '', ...template.tags].join('\n').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** The templates the search and the category chip let through, in the order the server sorted them. */
export function filterTemplates<T extends FilterableTemplate>(
  list: readonly T[],
  filters: TemplateFilters,
): T[] {
  return list.filter(
    (template) =>
      (filters.category === ALL_CATEGORIES || template.category === filters.category) &&
      matchesSearch(template, filters.search),
  );
}

/**
 * The category chips after 'All': the marketplace's four, then any other category a template uses
 * (an organization's own 'Operations'), alphabetically, each once.
 */
export function categoriesOf(templates: readonly Pick<FilterableTemplate, 'category'>[]): string[] {
  const fixed: readonly string[] = templateCategories;
  const extra = new Set<string>();
  for (const { category } of templates) {
    const name = category.trim();
    if (name && !fixed.includes(name)) extra.add(name);
  }
  return [...fixed, ...[...extra].sort((a, b) => a.localeCompare(b))];
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** Most Popular's order, as the server sorts it: most used first, then by name. */
export function byPopularity<T extends Pick<WorkflowTemplate, 'name' | 'usageCount'>>(
  list: readonly T[],
): T[] {
  return [...list].sort((a, b) => b.usageCount - a.usageCount || byName(a, b));
}

export interface FeaturedTemplates {
  mostPopular: WorkflowTemplate | null;
  highestRated: WorkflowTemplate | null;
  teamFavorite: WorkflowTemplate | null;
}

/**
 * The featured strip: Most Popular is the most used workflow template; Highest Rated the first in
 * the rating order (every rating is the same 4.5, so by name); Team Favorite the organization's own
 * most recently saved template, else the second most popular. The strip features different
 * templates where the rules leave a choice: among equally used templates Most Popular takes one
 * that is not Highest Rated, and Team Favorite the most popular one not featured yet.
 */
export function featuredTemplates(workflows: readonly WorkflowTemplate[]): FeaturedTemplates {
  const popular = byPopularity(workflows);
  const highestRated = [...workflows].sort(byName)[0] ?? null;
  const top = popular[0];
  const mostPopular =
    popular.find((t) => t.usageCount === top?.usageCount && t !== highestRated) ?? top ?? null;
  const own = workflows
    .filter((template) => template.isOwn)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || byName(a, b));
  const teamFavorite =
    own[0] ??
    popular.find((t) => t !== mostPopular && t !== highestRated) ??
    popular.find((t) => t !== mostPopular) ??
    null;
  return { mostPopular, highestRated, teamFavorite };
}

/** Which kinds of the shipped library are absent: then 'Load Sample Templates' brings them back. */
export function missingLibrary(data: {
  workflows: readonly { isOwn: boolean }[];
  agents: readonly { isOwn: boolean }[];
}) {
  const workflows = !data.workflows.some((template) => !template.isOwn);
  const agents = !data.agents.some((template) => !template.isOwn);
  return { workflows, agents, any: workflows || agents };
}

const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? noun : `${noun}s`}`;

/** '0 uses', '1 use', '1,204 uses'. */
export const usageLabel = (count: number) => plural(count, 'use');

/** '1 agent', '3 agents'. */
export const agentCountLabel = (count: number) => plural(count, 'agent');

const PROCESS_LABELS: Record<WorkflowTemplate['processType'], string> = {
  sequential: 'Sequential',
  hierarchical: 'Hierarchical',
  parallel: 'Parallel',
};

const TRIGGER_LABELS: Record<WorkflowTemplate['triggerType'], string> = {
  manual: 'Manual',
  schedule: 'Schedule',
  webhook: 'Webhook',
  email: 'Email',
};

const PROVIDER_LABELS: Record<AgentTemplate['llmProvider'], string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  local: 'Local',
  custom: 'Custom',
};

/** 'OpenAI', 'Anthropic', 'Local', 'Custom'. */
export const providerLabel = (value: AgentTemplate['llmProvider']) => PROVIDER_LABELS[value] ?? value;

export const processTypeLabel = (value: WorkflowTemplate['processType']) => PROCESS_LABELS[value] ?? value;
export const triggerTypeLabel = (value: WorkflowTemplate['triggerType']) => TRIGGER_LABELS[value] ?? value;

/** The tags an agent template card shows; the rest fold into '+N'. */
export const VISIBLE_AGENT_TAGS = 2;

export function visibleTags(tags: readonly string[]): { shown: string[]; hidden: number } {
  return { shown: tags.slice(0, VISIBLE_AGENT_TAGS), hidden: Math.max(0, tags.length - VISIBLE_AGENT_TAGS) };
}

/** The name of the workflow Use Template makes. */
export const workflowCopyName = (template: Pick<WorkflowTemplate, 'name'>) => `${template.name} (Copy)`;

/** The name of the agent Use Template makes. */
export const agentCopyName = (template: Pick<AgentTemplate, 'name'>) => template.name;

/**
 * The preview's graph: the template's nodes, each agent node labelled with its template agent's
 * name, role and model (nodes name their agent by the template agent's `key`, in `agentId` or
 * `data.agentId`), and those agents for the graph to fall back on.
 */
export function templateGraph(template: Pick<WorkflowTemplate, 'nodes' | 'agents'>): {
  nodes: WorkflowNode[];
  agents: GraphAgent[];
} {
  const byKey = new Map(template.agents.map((agent) => [agent.key, agent]));
  const nodes = template.nodes.map((node) => {
    if (node.type !== 'agent') return node;
    const key = node.agentId || (typeof node.data?.agentId === 'string' ? node.data.agentId : '');
    const agent = key ? byKey.get(key) : undefined;
    if (!agent) return node;
    return {
      ...node,
      data: { ...node.data, name: agent.name, role: agent.role, model: agent.llmModel },
    };
  });
  const agents = template.agents.map((agent) => ({
    id: agent.key,
    name: agent.name,
    role: agent.role,
    llmModel: agent.llmModel,
  }));
  return { nodes, agents };
}

/** The success toast of 'Load Sample Templates'. */
export function seededToast(result: SeedTemplatesResponse | null): { title: string; description: string } {
  const workflows = result?.added.workflows ?? 0;
  const agents = result?.added.agents ?? 0;
  const description =
    workflows + agents === 0
      ? 'Every sample template is already in the library.'
      : `Added ${plural(workflows, 'workflow template')} and ${plural(agents, 'agent template')}.`;
  return { title: 'Templates Seeded', description };
}

export const SEED_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Seeding Failed',
  description: 'Failed to seed templates. Please try again.',
} as const;

/** The success toast of Use Template on a workflow template. */
export function workflowCreatedToast(workflowName: string, agentCount: number) {
  return {
    title: 'Workflow Created',
    description: `"${workflowName}" was created from the template with ${agentCountLabel(agentCount)}.`,
  };
}

/** The success toast of Use Template on an agent template. */
export function agentCreatedToast(agentName: string) {
  return { title: 'Agent Created', description: `"${agentName}" was created from the template.` };
}

export const WORKFLOW_CREATE_FAILED = 'Failed to create workflow from template';
export const AGENT_CREATE_FAILED = 'Failed to create agent from template';

/** The failure toast of Use Template: the server's message when it has one. */
export function creationFailedToast(serverMessage: string | null, fallback: string) {
  return {
    variant: 'destructive',
    title: 'Creation Failed',
    description: serverMessage || fallback,
  } as const;
}
