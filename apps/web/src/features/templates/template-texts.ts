// The Template Marketplace's texts (docs/product-rules.md, Templates): the cards' labels, the names of
// what Use Template makes, and the toasts.
import type { AgentTemplate, SeedTemplatesResponse, WorkflowTemplate } from '@crewline/contracts';
import { llmProviderLabels, processTypeLabels, triggerTypeLabels } from '@crewline/contracts/vocabulary';

/** Every card shows the same fixed rating (the server sorts 'Highest Rated' by name for that reason). */
export const TEMPLATE_RATING = 4.5;

const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? noun : `${noun}s`}`;

/** '0 uses', '1 use', '1,204 uses'. */
export const usageLabel = (count: number) => plural(count, 'use');

/** '1 agent', '3 agents'. */
export const agentCountLabel = (count: number) => plural(count, 'agent');

const PROCESS_LABELS: Record<WorkflowTemplate['processType'], string> = processTypeLabels;
const TRIGGER_LABELS: Record<WorkflowTemplate['triggerType'], string> = triggerTypeLabels;
const PROVIDER_LABELS: Record<AgentTemplate['llmProvider'], string> = llmProviderLabels;

/** 'OpenAI', 'Anthropic', 'Local', 'Custom'. */
export const providerLabel = (value: AgentTemplate['llmProvider']) => PROVIDER_LABELS[value] ?? value;

export const processTypeLabel = (value: WorkflowTemplate['processType']) => PROCESS_LABELS[value] ?? value;
export const triggerTypeLabel = (value: WorkflowTemplate['triggerType']) => TRIGGER_LABELS[value] ?? value;

/** The tags an agent template card shows; the rest fold into '+N'. */
const VISIBLE_AGENT_TAGS = 2;

export function visibleTags(tags: readonly string[]): { shown: string[]; hidden: number } {
  return { shown: tags.slice(0, VISIBLE_AGENT_TAGS), hidden: Math.max(0, tags.length - VISIBLE_AGENT_TAGS) };
}

/** The name of the workflow Use Template makes. */
export const workflowCopyName = (template: Pick<WorkflowTemplate, 'name'>) => `${template.name} (Copy)`;

/** The name of the agent Use Template makes. */
export const agentCopyName = (template: Pick<AgentTemplate, 'name'>) => template.name;

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
