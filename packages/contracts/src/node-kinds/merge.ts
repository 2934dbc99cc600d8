// The Merge node: joins paths; `all` waits for every path that was taken, `first` for the first one.
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

export const mergeModeValues = ['all', 'first'] as const;

/** `{ mode }`; an `all` merge's step `data` is `[{ nodeId, content, data }]` of the taken inputs. */
export const mergeNodeKind = {
  kind: 'merge',
  label: 'Merge',
  help: 'Joins paths: waits for every path taken (all) or goes on with the first (first).',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({ mode: z.enum(mergeModeValues).default('all') }).meta({
    description:
      "Joins paths: `all` waits for every path that was taken (a skipped one never blocks it) and its step's `data` is `[{ nodeId, content, data }]` of the taken inputs; `first` goes on with the first.",
    examples: [{ label: 'Join', mode: 'all' }],
  }),
} as const satisfies NodeKindDefinition<'merge'>;
