// The Map node: runs an agent or a workflow for each item of a list, a few at a time.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';
import { runTargetSchema } from './run-target';

export const onItemErrorValues = ['fail', 'continue'] as const;
/** Items a map takes at most when no plan says otherwise (PlanLimits.mapItems: larger lists fail the node when the run reaches it). */
export const MAP_MAX_ITEMS = 1000;
export const MAP_CONCURRENCY = { min: 1, max: 20 } as const;

/**
 * `{ items, run, concurrency, onItemError }` (`items` is CEL giving a list); its step's `data` is
 * `[{ index, status, content, data, error? }]` in item order, each item a child step `mapNode[3]`.
 */
export const mapNodeKind = {
  kind: 'map',
  label: 'Map',
  help: 'Runs an agent or a workflow for each item of a list, a few at a time.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({
    items: z.string().max(5000).default('').meta({ description: 'CEL giving a list (at most 1,000 items).' }),
    run: runTargetSchema.optional(),
    concurrency: z.number().int().default(1).meta({ description: 'Items run at once, 1 to 20.' }),
    onItemError: z.enum(onItemErrorValues).default('fail').meta({
      description: "`fail` stops the map and fails the node; `continue` keeps the item's error and goes on.",
    }),
  }).meta({
    description:
      "Runs an agent (its prompt reads `item`, `index`, `last`) or a workflow for each item. Its step's `data` is `[{ index, status, content, data, error? }]` in item order; each item is a child step `<id>[<index>]`.",
    examples: [
      {
        label: 'Summarize each order',
        items: 'nodes.classify.data.orders',
        run: {
          agentId: '9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f',
          prompt: 'Summarize order {{ item }} ({{ index + 1 }} of {{ vars.orderCount }})',
        },
        concurrency: 5,
        onItemError: 'continue',
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'map'>;
