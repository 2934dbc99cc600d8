// The shipped template library of the Template Marketplace: workflow templates (each with the agents
// it needs) and standalone agent templates. Seeding keys them by `slug`, so a slug never changes once
// shipped. The data lives in sample-workflow-templates.ts,
// deciding-workflow-templates.ts and sample-agent-templates.ts.
import type {
  processTypeValues,
  TemplateAgent,
  TriggerConfig,
  triggerTypeValues,
  WorkflowEdge,
  WorkflowNode,
} from '@crewline/contracts';
import { decidingWorkflowTemplates } from './deciding-workflow-templates';
import { sampleWorkflowTemplates as agentWorkflowTemplates } from './sample-workflow-templates';

export type ProcessType = (typeof processTypeValues)[number];
type TriggerType = (typeof triggerTypeValues)[number];

/**
 * A shipped workflow template. Its agent nodes name their agent by `key` in `agentId`; using the
 * template creates (or reuses) the organization's agents and maps the keys to their ids.
 */
export type SampleWorkflowTemplate = {
  slug: string;
  name: string;
  description: string;
  category: string;
  tags: string[];
  processType: ProcessType;
  triggerType: TriggerType;
  triggerConfig: TriggerConfig;
  agents: TemplateAgent[];
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
};

/** A shipped agent template: an agent definition with the marketplace's category and tags. */
export type SampleAgentTemplate = Omit<TemplateAgent, 'key'> & {
  slug: string;
  category: string;
  tags: string[];
};

export { sampleAgentTemplates } from './sample-agent-templates';

/** Every shipped workflow template: the agent-only ones, then those that decide (conditions, maps, loops). */
export const sampleWorkflowTemplates: SampleWorkflowTemplate[] = [
  ...agentWorkflowTemplates,
  ...decidingWorkflowTemplates,
];
