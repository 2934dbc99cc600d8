import { z } from 'zod';

/** What a map item or a loop pass runs: one agent asked a prompt template, or another workflow. */
export const runTargetSchema = z
  .union([
    z.object({ agentId: z.string().min(1), prompt: z.string().max(20_000).default('{{ item }}') }),
    z.object({ workflowId: z.string().min(1) }),
  ])
  .meta({
    description:
      "What runs: an agent asked `prompt` (a template), or another of the organization's workflows (its newest version when the run started).",
  });
export type RunTarget = z.infer<typeof runTargetSchema>;
