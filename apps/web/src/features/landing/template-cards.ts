// The landing page's template cards: the most used workflows of the shipped library
// (GET /api/templates/library), or the static previews of landing-content.ts when the library cannot
// be read. Pure, so it is unit-tested without a browser. Type imports only: the landing chunk stays
// free of the contracts' runtime (zod).
import type { TemplateLibraryResponse } from '@crewline/contracts';

import type { FlowType, TemplatePreview } from './content/landing-content';

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
  /** Runs on its own (a webhook, a schedule or an email) rather than when someone presses Run. */
  eventDriven: boolean;
  rating: number;
  /** '1 use', '950 uses', '12.4k uses'. */
  uses: string;
}

const FLOW_TYPES: Record<LibraryWorkflow['processType'], FlowType> = {
  sequential: 'Sequential',
  hierarchical: 'Hierarchical',
  parallel: 'Parallel',
};

const EVENT_TRIGGERS = new Set<LibraryWorkflow['triggerType']>(['webhook', 'schedule', 'email']);

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
    eventDriven: EVENT_TRIGGERS.has(workflow.triggerType),
    rating: LANDING_TEMPLATE_RATING,
    uses: usesLabel(workflow.usageCount),
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
    eventDriven: false,
    rating: preview.rating,
    uses: `${preview.uses} uses`,
  };
}

/**
 * What the section shows: 'loading' (skeleton cards) until the library answers, its top workflows
 * then, and the static previews when it failed or is empty.
 */
export function templateCards(
  library: { status: 'pending' | 'error' | 'success'; data?: TemplateLibraryResponse },
  previews: readonly TemplatePreview[],
): TemplateCardData[] | 'loading' {
  if (library.status === 'pending') return 'loading';
  const workflows = library.status === 'success' ? (library.data?.workflows ?? []) : [];
  if (workflows.length === 0) return previews.map(staticCard);
  return topLibraryWorkflows(workflows).map(libraryCard);
}
