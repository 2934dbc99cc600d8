// The Template Marketplace's library (docs/product-rules.md, Templates): search, category chips and
// sort, the featured picks, and which part of the shipped library is missing.
import { templateCategories, type TemplateSort, type WorkflowTemplate } from '@crewline/contracts';

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
