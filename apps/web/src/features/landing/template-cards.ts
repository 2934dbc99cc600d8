// The landing page's template cards: the most used workflows of the shipped library
// (GET /api/templates/library), or the static previews of landing-content.ts when the library cannot
// be read. Pure, so it is unit-tested without a browser. Only types and the zod-free vocabulary from
// the contracts: the landing chunk stays free of their runtime (zod).
import type { TemplateLibraryResponse } from '@crewline/contracts';
import { processTypeLabels } from '@crewline/contracts/vocabulary';

import type { FlowType, TemplatePreview, TriggerLabel } from './content/landing-content';

export type LibraryWorkflow = TemplateLibraryResponse['workflows'][number];

/** How many cards the section shows. */
export const LANDING_TEMPLATE_COUNT = 6;
/** Every template card shows the same rating (the marketplace has no ratings yet). */
export const LANDING_TEMPLATE_RATING = 4.5;

export interface TemplateCardData {
  key: string;
  title: string;
  description: string;
  category: string;
  agents: number;
  flowType: FlowType;
  /** How it starts when not by Run: 'Event-driven' (a webhook or an email) or 'Scheduled'. */
  trigger: TriggerLabel | null;
  rating: number;
  /** '1 use', '950 uses', '12.4k uses'. */
  uses: string;
  /** Use Template's link: sign up, then that template opens in the app (the library's cards only). */
  useHref: string;
}

/**
 * The chips after 'All': the template library's own categories (contracts' templateCategories,
 * written out here so the landing chunk stays free of zod; template-cards.test.ts compares them).
 */
export const LANDING_CATEGORIES = [
  'Content Marketing',
  'Customer Service',
  'Email Marketing',
  'Business Intelligence',
] as const;
export const ALL_TEMPLATES = 'All';

/** 'All', then each library category that has a template to show: a chip always filters something. */
export function categoryChips(categories: readonly string[]): string[] {
  const present = new Set(categories);
  const known: readonly string[] = LANDING_CATEGORIES;
  const extra = [...present].filter((c) => !known.includes(c)).sort((a, b) => a.localeCompare(b));
  return [ALL_TEMPLATES, ...known.filter((c) => present.has(c)), ...extra];
}

/** The templates of a chip ('All': every one). */
export function inCategory<T extends { category: string }>(list: readonly T[], category: string): T[] {
  return category === ALL_TEMPLATES ? [...list] : list.filter((item) => item.category === category);
}

/** /signup?template=<id>: the sign-up (or sign-in) that then opens the template (lib/invite-links.ts). */
export function templateSignupHref(templateId: string | null): string {
  return templateId ? `/signup?${new URLSearchParams({ template: templateId }).toString()}` : '/signup';
}

const FLOW_TYPES = processTypeLabels as Record<LibraryWorkflow['processType'], FlowType>;

/** A schedule is not an event: it runs at the times it names. Manual has no label (Run starts it). */
const TRIGGER_LABELS: Record<LibraryWorkflow['triggerType'], TriggerLabel | null> = {
  manual: null,
  webhook: 'Event-driven',
  email: 'Event-driven',
  schedule: 'Scheduled',
};

export function triggerLabel(triggerType: LibraryWorkflow['triggerType']): TriggerLabel | null {
  return TRIGGER_LABELS[triggerType] ?? null;
}

/** 950 → '950', 1200 → '1.2k', 12_400 → '12.4k', 2_000_000 → '2M'. */
export function compactCount(n: number): string {
  const short = (value: number, suffix: string) => `${value.toFixed(1).replace(/\.0$/, '')}${suffix}`;
  if (n >= 999_950) return short(n / 1_000_000, 'M');
  if (n >= 1000) return short(n / 1000, 'k');
  return String(n);
}

export function usesLabel(n: number): string {
  return `${compactCount(n)} ${n === 1 ? 'use' : 'uses'}`;
}

/** The most used first (the library's order for a tie: by name), at most `count`. */
export function topLibraryWorkflows(
  workflows: readonly LibraryWorkflow[],
  count = LANDING_TEMPLATE_COUNT,
): LibraryWorkflow[] {
  return [...workflows]
    .sort((a, b) => b.usageCount - a.usageCount || a.name.localeCompare(b.name))
    .slice(0, count);
}

export function libraryCard(workflow: LibraryWorkflow): TemplateCardData {
  return {
    key: workflow.id,
    title: workflow.name,
    description: workflow.description ?? '',
    category: workflow.category,
    agents: workflow.agentCount,
    flowType: FLOW_TYPES[workflow.processType] ?? 'Sequential',
    trigger: triggerLabel(workflow.triggerType),
    rating: LANDING_TEMPLATE_RATING,
    uses: usesLabel(workflow.usageCount),
    useHref: templateSignupHref(workflow.id),
  };
}

export function staticCard(preview: TemplatePreview): TemplateCardData {
  return {
    key: preview.title,
    title: preview.title,
    description: preview.description,
    category: preview.category,
    agents: preview.agents,
    flowType: preview.flowType,
    trigger: preview.trigger,
    rating: preview.rating,
    uses: `${preview.uses} uses`,
    useHref: templateSignupHref(null),
  };
}

/**
 * What the section shows: 'loading' (skeleton cards) until the library answers, then the chips of the
 * categories it has and the top workflows of the chosen one; the static previews when it failed or is
 * empty. A chip the data does not have (gone after a reload) shows 'All'.
 */
export function templateCards(
  library: { status: 'pending' | 'error' | 'success'; data?: TemplateLibraryResponse },
  previews: readonly TemplatePreview[],
  category: string = ALL_TEMPLATES,
): { chips: string[]; category: string; cards: TemplateCardData[] } | 'loading' {
  if (library.status === 'pending') return 'loading';
  const workflows = library.status === 'success' ? (library.data?.workflows ?? []) : [];
  const source: readonly { category: string }[] = workflows.length > 0 ? workflows : previews;
  const chips = categoryChips(source.map((item) => item.category));
  const chosen = chips.includes(category) ? category : ALL_TEMPLATES;
  const cards =
    workflows.length > 0
      ? topLibraryWorkflows(inCategory(workflows, chosen)).map(libraryCard)
      : inCategory(previews, chosen).map(staticCard);
  return { chips, category: chosen, cards };
}
