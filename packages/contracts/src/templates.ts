import { z } from 'zod';
import { agentOutputSchema, agentSchema, llmProviderSchema } from './agents';
import {
  processTypeSchema,
  triggerConfigSchema,
  triggerTypeSchema,
  workflowEdgeSchema,
  workflowNodeSchema,
  workflowSchema,
} from './workflows';

/** The category chips of the marketplace; saved templates may add their own. */
export const templateCategories = [
  'Content Marketing',
  'Customer Service',
  'Email Marketing',
  'Business Intelligence',
] as const;

/**
 * An agent a workflow template needs. Its nodes name it by `key` (in `agentId`); using the template
 * creates the agent (or reuses the one the organization made from the same definition before).
 */
export const templateAgentSchema = z.object({
  key: z.string().min(1).max(100),
  name: z.string().min(1).max(100),
  description: z.string().max(2000).nullable(),
  role: z.string().min(1).max(200),
  goal: z.string().min(1).max(2000),
  backstory: z.string().max(5000).nullable(),
  llmProvider: llmProviderSchema,
  llmModel: z.string().min(1).max(200),
  temperature: z.number().int().min(0).max(100),
  maxTokens: z.number().int().min(100).max(8000),
  systemPrompt: z.string().max(20000).nullable(),
  /** The JSON Schema its answers follow (the agent's outputSchema), for a template whose steps read its fields. */
  outputSchema: agentOutputSchema.optional(),
});
export type TemplateAgent = z.infer<typeof templateAgentSchema>;

/** A workflow template as GET /api/templates answers it. */
export const workflowTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  tags: z.array(z.string()),
  processType: processTypeSchema,
  triggerType: triggerTypeSchema,
  triggerConfig: triggerConfigSchema,
  nodes: z.array(workflowNodeSchema),
  edges: z.array(workflowEdgeSchema),
  agents: z.array(templateAgentSchema),
  usageCount: z.number().int(),
  isPublic: z.boolean(),
  /** The organization's own template (false for the shipped library). */
  isOwn: z.boolean(),
  createdAt: z.string(),
});
export type WorkflowTemplate = z.infer<typeof workflowTemplateSchema>;

/** An agent template as GET /api/templates answers it. */
export const agentTemplateSchema = templateAgentSchema.omit({ key: true }).extend({
  id: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  tools: z.array(z.string()),
  usageCount: z.number().int(),
  isPublic: z.boolean(),
  isOwn: z.boolean(),
  createdAt: z.string(),
});
export type AgentTemplate = z.infer<typeof agentTemplateSchema>;

export const templatesResponseSchema = z.object({
  workflows: z.array(workflowTemplateSchema),
  agents: z.array(agentTemplateSchema),
});
export type TemplatesResponse = z.infer<typeof templatesResponseSchema>;

/** The marketplace's sort select: Highest Rated, Most Popular (usage), Most Recent. */
export const templateSortValues = ['rating', 'popular', 'recent'] as const;
export type TemplateSort = (typeof templateSortValues)[number];
export const templatesQuerySchema = z.object({ sort: z.enum(templateSortValues).default('rating') });

/** POST /api/templates/:templateId/create and /api/templates/agents/:templateId/create. */
export const createFromTemplateSchema = z.object({
  name: z.string().trim().min(1, { message: 'Name is required' }).max(100),
});
export type CreateFromTemplateInput = z.infer<typeof createFromTemplateSchema>;

export const templateIdParamsSchema = z.object({ templateId: z.string() });

/** The workflow made from a template, with every agent its nodes use (made now or reused). */
export const workflowFromTemplateResponseSchema = z.object({
  workflow: workflowSchema,
  agents: z.array(agentSchema),
});

/** POST /api/templates/seed: how many samples were missing and are back, and the library's size. */
export const seedTemplatesResponseSchema = z.object({
  added: z.object({ workflows: z.number().int(), agents: z.number().int() }),
  total: z.object({ workflows: z.number().int(), agents: z.number().int() }),
});
export type SeedTemplatesResponse = z.infer<typeof seedTemplatesResponseSchema>;

/** Save as template (a workflow with its agents' definitions, or an agent): private to the organization. */
export const saveAsTemplateSchema = z.object({
  name: z.string().trim().min(1, { message: 'Name is required' }).max(100),
  description: z.string().trim().max(2000).nullish(),
  category: z.string().trim().min(1, { message: 'Category is required' }).max(60),
  tags: z.array(z.string().trim().min(1).max(40)).max(10).default([]),
});
export type SaveAsTemplateInput = z.input<typeof saveAsTemplateSchema>;
export type SaveAsTemplateData = z.output<typeof saveAsTemplateSchema>;

/** GET /api/templates/library (public): the shipped workflow templates as the landing page shows them. */
export const templateLibraryResponseSchema = z.object({
  workflows: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      category: z.string(),
      processType: processTypeSchema,
      triggerType: triggerTypeSchema,
      agentCount: z.number().int(),
      usageCount: z.number().int(),
    }),
  ),
});
export type TemplateLibraryResponse = z.infer<typeof templateLibraryResponseSchema>;
