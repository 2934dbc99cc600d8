// Pure rules of the agent list and the agent card (docs/product-rules.md).
// No React, so the vitest 'web' project can test them directly.
import type { Agent } from '@crewline/contracts';
import { llmProviderLabels, llmProviderValues } from '@crewline/contracts/vocabulary';

/* ----------------------------------------------------------------------------------------------
 * Filters
 * -------------------------------------------------------------------------------------------- */

export const AGENT_STATUS_OPTIONS = ['active', 'inactive', 'busy', 'error'] as const;
export const AGENT_PROVIDER_OPTIONS = llmProviderValues;

/** 'all' disables a filter. */
export interface AgentFilters {
  search: string;
  status: 'all' | (typeof AGENT_STATUS_OPTIONS)[number];
  provider: 'all' | (typeof AGENT_PROVIDER_OPTIONS)[number];
}

export const DEFAULT_AGENT_FILTERS: AgentFilters = { search: '', status: 'all', provider: 'all' };

/** The fields the list filters look at. */
export type FilterableAgent = Pick<Agent, 'name' | 'role' | 'status' | 'llmProvider'>;

/** True when the search has text or a select is not 'all' ('No agents found' vs 'No agents created yet'). */
export function hasActiveFilters(filters: AgentFilters): boolean {
  return filters.search.trim() !== '' || filters.status !== 'all' || filters.provider !== 'all';
}

/**
 * Search is a case-insensitive substring match on name or role; status and provider are exact
 * matches; 'all' disables a filter.
 */
export function filterAgents<T extends FilterableAgent>(agents: readonly T[], filters: AgentFilters): T[] {
  const needle = filters.search.trim().toLowerCase();
  return agents.filter((agent) => {
    if (needle) {
      const name = (agent.name ?? '').toLowerCase();
      const role = (agent.role ?? '').toLowerCase();
      if (!name.includes(needle) && !role.includes(needle)) return false;
    }
    if (filters.status !== 'all' && agent.status !== filters.status) return false;
    if (filters.provider !== 'all' && agent.llmProvider !== filters.provider) return false;
    return true;
  });
}

/* ----------------------------------------------------------------------------------------------
 * Card display
 * -------------------------------------------------------------------------------------------- */

export type AgentStatusDisplay = 'active' | 'busy' | 'error' | 'inactive';

/** active, busy and error are shown as such; any other value is shown as inactive. */
export function agentStatusDisplay(status: string | null | undefined): AgentStatusDisplay {
  return status === 'active' || status === 'busy' || status === 'error' ? status : 'inactive';
}

/** Pause is offered when active, Activate otherwise; the toggle goes between active and inactive. */
export function nextToggleStatus(status: string | null | undefined): 'active' | 'inactive' {
  return status === 'active' ? 'inactive' : 'active';
}

const DEFAULT_TEMPERATURE = 70;
const DEFAULT_MAX_TOKENS = 2000;
const DESCRIPTION_LIMIT = 100;

/** The temperature percent shown on the card: 70 when absent, kept within 0–100. */
export function displayTemperature(temperature: number | null | undefined): number {
  if (typeof temperature !== 'number' || !Number.isFinite(temperature)) return DEFAULT_TEMPERATURE;
  return Math.min(100, Math.max(0, Math.round(temperature)));
}

/** Max tokens shown on the card: 2000 when absent. */
export function displayMaxTokens(maxTokens: number | null | undefined): number {
  return typeof maxTokens === 'number' && Number.isFinite(maxTokens) ? maxTokens : DEFAULT_MAX_TOKENS;
}

/**
 * The description as the card shows it: cut at 100 characters (followed by '...') unless expanded.
 * `truncatable` says whether the Show more / Show less toggle is needed at all.
 */
export function truncateDescription(
  description: string | null | undefined,
  expanded: boolean,
  limit = DESCRIPTION_LIMIT,
): { text: string; truncatable: boolean } {
  const text = description?.trim() ?? '';
  const truncatable = text.length > limit;
  if (!truncatable || expanded) return { text, truncatable };
  return { text: `${text.slice(0, limit)}...`, truncatable };
}

/** Tool badges: strings as they are, objects by their name or else their id; anything else is skipped. */
export function toolBadgeLabels(tools: readonly unknown[] | null | undefined): string[] {
  if (!Array.isArray(tools)) return [];
  const labels: string[] = [];
  for (const tool of tools) {
    if (typeof tool === 'string') {
      if (tool.trim()) labels.push(tool.trim());
    } else if (tool && typeof tool === 'object') {
      const { name, id } = tool as { name?: unknown; id?: unknown };
      const label = typeof name === 'string' && name.trim() ? name : typeof id === 'string' ? id : null;
      if (label?.trim()) labels.push(label.trim());
    }
  }
  return labels;
}

const PROVIDER_LABELS: Record<string, string> = llmProviderLabels;

export function providerLabel(provider: string | null | undefined): string {
  if (!provider) return 'Unknown';
  return PROVIDER_LABELS[provider] ?? provider.charAt(0).toUpperCase() + provider.slice(1);
}

export type ProviderTone = 'blue' | 'purple' | 'green' | 'gray';

/** Provider colours: openai blue, anthropic purple, local green, any other gray. */
export function providerTone(provider: string | null | undefined): ProviderTone {
  switch (provider) {
    case 'openai':
      return 'blue';
    case 'anthropic':
      return 'purple';
    case 'local':
      return 'green';
    default:
      return 'gray';
  }
}

/* ----------------------------------------------------------------------------------------------
 * Toast texts
 * -------------------------------------------------------------------------------------------- */

export interface ToastText {
  title: string;
  description: string;
  variant?: 'destructive';
}

const TEST_PREVIEW_LIMIT = 100;

/** The answer of POST /api/agents/:id/test (200 even when the model call failed). */
export interface AgentTestAnswer {
  success: boolean;
  response?: string | null;
  error?: string | null;
}

/**
 * The toast for a test result: success gives 'Agent Test Successful' with the first 100 characters
 * of the response followed by '...'; success false gives the destructive 'Agent Test Failed' with
 * the server's error.
 */
export function testResultToast(result: AgentTestAnswer): ToastText {
  if (result.success) {
    const response = result.response ?? '';
    return {
      title: 'Agent Test Successful',
      description: `${response.slice(0, TEST_PREVIEW_LIMIT)}...`,
    };
  }
  return {
    variant: 'destructive',
    title: 'Agent Test Failed',
    description: result.error?.trim() || 'The agent did not answer.',
  };
}

/** A test call that threw (network, 4xx/5xx). */
export const TEST_ERROR_TOAST: ToastText = {
  variant: 'destructive',
  title: 'Test Error',
  description: 'Failed to test agent',
};

/** The toast after the card's Pause / Activate succeeded. */
export function statusToggleToast(newStatus: string): ToastText {
  return {
    title: 'Agent Updated',
    description: newStatus === 'active' ? 'Agent activated successfully' : 'Agent deactivated successfully',
  };
}

export const STATUS_TOGGLE_ERROR_TOAST: ToastText = {
  variant: 'destructive',
  title: 'Update Failed',
  description: 'Failed to update agent status',
};

/** The delete confirmation text. */
export function deleteConfirmationText(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone.`;
}
