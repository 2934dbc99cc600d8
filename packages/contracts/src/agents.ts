import { z } from 'zod';
import { agentStatusValues, llmProviderValues } from './enums';

export const agentStatusSchema = z.enum(agentStatusValues);
export const llmProviderSchema = z.enum(llmProviderValues);

/** An agent as the API answers it (spec part 2 §3). */
export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  role: z.string(),
  goal: z.string(),
  backstory: z.string().nullable(),
  llmProvider: llmProviderSchema,
  llmModel: z.string(),
  temperature: z.number().int(),
  maxTokens: z.number().int(),
  systemPrompt: z.string().nullable(),
  tools: z.array(z.unknown()),
  status: agentStatusSchema,
  templateCategory: z.string().nullable(),
  templateTags: z.array(z.string()),
  config: z.record(z.string(), z.unknown()),
  organizationId: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;
