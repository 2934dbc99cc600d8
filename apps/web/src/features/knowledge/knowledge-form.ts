// The values of the Create and Edit dialogs of a knowledge base, and the bodies they send (the
// contracts' createKnowledgeBaseSchema and updateKnowledgeBaseSchema check them again on the server).
import {
  addKnowledgeDocumentFieldsSchema,
  knowledgeDocumentTextSchema,
  DEFAULT_EMBEDDING_MODEL,
  embeddingProviderSchema,
  type CreateKnowledgeBaseInput,
  type KnowledgeBase,
  type UpdateKnowledgeBaseInput,
} from '@crewline/contracts';
import { z } from 'zod';

export const KNOWLEDGE_FORM_FIELDS = ['name', 'description', 'embeddingProvider', 'embeddingModel'] as const;

export const knowledgeFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: 'Name is required' })
    .max(100, { message: 'Name must be at most 100 characters' }),
  description: z.string().trim().max(500, { message: 'Description must be at most 500 characters' }),
  embeddingProvider: embeddingProviderSchema,
  embeddingModel: z
    .string()
    .trim()
    .min(1, { message: 'Model is required' })
    .max(200, { message: 'Model must be at most 200 characters' }),
});

export type KnowledgeFormValues = z.input<typeof knowledgeFormSchema>;
export type KnowledgeFormOutput = z.output<typeof knowledgeFormSchema>;

/** OpenAI and its small embedding model unless the user picks otherwise. */
export function emptyKnowledgeForm(): KnowledgeFormValues {
  return { name: '', description: '', embeddingProvider: 'openai', embeddingModel: DEFAULT_EMBEDDING_MODEL };
}

export function knowledgeFormFrom(base: KnowledgeBase): KnowledgeFormValues {
  return {
    name: base.name,
    description: base.description ?? '',
    embeddingProvider: base.embeddingProvider,
    embeddingModel: base.embeddingModel,
  };
}

/** A blank description is none. */
export function createKnowledgeBody(values: KnowledgeFormOutput): CreateKnowledgeBaseInput {
  return {
    name: values.name,
    description: values.description || null,
    embeddingProvider: values.embeddingProvider,
    embeddingModel: values.embeddingModel,
  };
}

/** Rename and describe: the embedding connection and model stay (the stored vectors depend on them). */
export function updateKnowledgeBody(values: KnowledgeFormOutput): UpdateKnowledgeBaseInput {
  return { name: values.name, description: values.description || null };
}

/** A pasted text's name when the user gives none: 'Pasted text 2026-11-26 14:05'. */
export function defaultPasteName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `Pasted text ${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

/** Paste text: a name and the text (the contract's rules for a document's name and content). */
export const pasteTextSchema = addKnowledgeDocumentFieldsSchema
  .pick({ name: true })
  .extend({ content: knowledgeDocumentTextSchema });
export type PasteTextValues = z.input<typeof pasteTextSchema>;
export const PASTE_TEXT_FIELDS = ['name', 'content'] as const;
