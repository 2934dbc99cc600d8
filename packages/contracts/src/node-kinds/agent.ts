// The Agent node: a step a run executes with one of the organization's agents.
import { nodeDataSchema, type NodeKindDefinition } from './data';

/**
 * Reads `agentId` (or `data.agentId`), and from `data`: `label`, `name`, `role`, `description`,
 * `model`, `color`, the output fields (`outputFormat`, `outputDestination`, `filePath`, `webhookUrl`,
 * `emailRecipients`) and the variables (`inputVariables`, `outputVariable`).
 */
export const agentNodeKind = {
  kind: 'agent',
  label: 'Agent',
  removable: true,
  data: nodeDataSchema,
} as const satisfies NodeKindDefinition<'agent'>;
