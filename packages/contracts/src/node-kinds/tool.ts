// The Tool node: calls one of the organization's tools directly, with arguments from templates.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

/**
 * `{ toolId, arguments: { [name]: template } }` (a value that is exactly `{{ expr }}` keeps the
 * expression's type); no model is involved, and the tool's result is the step's `data`.
 */
export const toolNodeKind = {
  kind: 'tool',
  label: 'Tool',
  help: 'Calls one of your tools directly with arguments from expressions; no model.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({
    toolId: z.string().optional().meta({ description: "One of the organization's tools." }),
    mcpTool: z.string().max(200).optional().meta({
      description: "When the tool is an MCP server connection: the server's tool to call, by its own name.",
    }),
    arguments: z.record(z.string().max(100), z.string().max(20_000)).default({}).meta({
      description:
        "Each argument is a template; one that is exactly `{{ expr }}` keeps the value's type (a list stays a list).",
    }),
  }).meta({
    description:
      "Calls one of the organization's tools with arguments from templates; no model. Its step's `data` is the tool's result.",
    examples: [
      {
        label: 'Look up orders',
        toolId: 'e1c2d3f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        arguments: {
          customer: '{{ input.customer }}',
          orderIds: '{{ nodes.classify.data.orders }}',
          note: 'Ticket: {{ input.subject }}',
        },
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'tool'>;
