// The Delay node: the run waits for a duration or until a time, durably, holding no worker.
import { z } from 'zod';
import { APPROVAL_MAX_SECONDS } from './approval';
import { kindData, type NodeKindDefinition } from './data';

/** `{ seconds }` or `{ until: <CEL timestamp or ISO string> }`; its step's `data` is `{ until }` (ISO). */
export const delayNodeKind = {
  kind: 'delay',
  label: 'Delay',
  help: 'Waits for a duration or until a time before the run goes on; the run holds no worker meanwhile.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({
    seconds: z.number().int().min(1).max(APPROVAL_MAX_SECONDS).optional(),
    until: z.string().max(5000).optional(),
  }).meta({
    description:
      "Waits `seconds`, or until `until` (CEL giving a timestamp or an ISO 8601 string, e.g. `timestamp(input.sendAt)`). Its step's `data` is `{ until }`.",
    examples: [{ label: 'Wait a day', seconds: 86400 }],
  }),
} as const satisfies NodeKindDefinition<'delay'>;
