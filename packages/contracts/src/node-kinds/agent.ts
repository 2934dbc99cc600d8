// The Agent node: a step a run executes with one of the organization's agents.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

/** A JSON Schema object (an agent's declared output shape); checked as a schema by the engine. */
export const jsonSchemaObject = z.record(z.string(), z.unknown());

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why a declared output schema cannot be asked for, or null: providers' structured output takes an
 * object schema. (The server also checks that it compiles.)
 */
export function outputSchemaProblem(schema: unknown): string | null {
  if (!isJsonObject(schema)) return 'is not a JSON object';
  if (schema.type !== 'object') return 'must describe an object ("type": "object")';
  if (schema.properties !== undefined && !isJsonObject(schema.properties))
    return 'has "properties" that are not an object';
  return null;
}

/**
 * Reads `agentId` (or `data.agentId`), and from `data`: `label`, `name`, `role`, `description`,
 * `model`, `color`, the output fields (`outputFormat`, `outputDestination`, `filePath`, `webhookUrl`,
 * `emailRecipients`), the variables (`inputVariables`, `outputVariable`), `outputSchema` (the JSON
 * Schema its answer must follow; the agent's own when absent) and `prompt` (a template, `{{ expr }}`,
 * replacing the default user message).
 */
export const agentNodeKind = {
  kind: 'agent',
  label: 'Agent',
  help: 'Asks one of your agents; with an output schema its answer is structured data.',
  removable: true,
  step: true,
  sequentialOnly: false,
  data: kindData({
    outputSchema: jsonSchemaObject.optional().meta({
      description:
        'A JSON Schema object the answer must follow; the step keeps the parsed answer as its `data`.',
    }),
    prompt: z
      .string()
      .optional()
      .meta({ description: 'A template (`{{ expr }}`) replacing the default user message.' }),
  }).meta({
    description:
      "An agent step (the agent in the node's `agentId`). Its step's `content` is the answer; with an output schema, `data` is the parsed object.",
    examples: [
      {
        label: 'Classify',
        prompt: 'Classify this ticket from {{ input.customer }}:\n\n{{ input.subject }}\n{{ input.body }}',
        outputSchema: {
          type: 'object',
          properties: {
            category: { type: 'string', enum: ['billing', 'bug', 'other'] },
            urgent: { type: 'boolean' },
            orders: { type: 'array', items: { type: 'string' } },
          },
          required: ['category', 'urgent', 'orders'],
        },
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'agent'>;
