// Save as Template (docs/product-rules.md, Templates): the dialog's values, what it sends to
// POST /api/workflows/:id/save-as-template or /api/agents/:id/save-as-template, and its toast. Pure, so
// it is unit-tested without a browser; the dialog is components/save-as-template-dialog.tsx.
import { saveAsTemplateSchema, templateCategories, type SaveAsTemplateData } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { z } from 'zod';

import { endpointUrl } from './api-call';

export type TemplateSourceKind = 'workflow' | 'agent';

/** The marketplace's categories, offered first; any other category may be typed in. */
export const TEMPLATE_CATEGORY_SUGGESTIONS: readonly string[] = templateCategories;

const TEMPLATE_TAGS_MAX = 10;
const TEMPLATE_TAG_MAX_LENGTH = 40;

/** The form's fields, in the order the dialog shows them (and the server names them in errors). */
export const SAVE_AS_TEMPLATE_FIELDS = ['name', 'description', 'category', 'tags'] as const;

/** 'research, SEO ,, Research' → ['research', 'SEO']: trimmed, empty ones dropped, each once. */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of text.split(',')) {
    const tag = part.trim().replace(/\s+/g, ' ');
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}

/** The server's rules for the template, with tags typed as one comma-separated line. */
export const saveAsTemplateFormSchema = z.object({
  name: saveAsTemplateSchema.shape.name,
  description: z.string().trim().max(2000, { message: 'Description must be at most 2000 characters' }),
  category: saveAsTemplateSchema.shape.category,
  tags: z.string().superRefine((text, ctx) => {
    const tags = parseTags(text);
    if (tags.length > TEMPLATE_TAGS_MAX)
      ctx.addIssue({ code: 'custom', message: `At most ${TEMPLATE_TAGS_MAX} tags` });
    const long = tags.find((tag) => tag.length > TEMPLATE_TAG_MAX_LENGTH);
    if (long)
      ctx.addIssue({
        code: 'custom',
        message: `Each tag is at most ${TEMPLATE_TAG_MAX_LENGTH} characters ("${long.slice(0, 20)}…")`,
      });
  }),
});
export type SaveAsTemplateFormValues = z.input<typeof saveAsTemplateFormSchema>;
export type SaveAsTemplateFormOutput = z.output<typeof saveAsTemplateFormSchema>;

/** What the template is made from: a saved workflow or agent. */
export interface TemplateSource {
  name: string;
  description: string | null;
  /** The category and tags of the template it was made from, if any. */
  templateCategory?: string | null;
  templateTags?: string[];
}

/** The dialog starts from the saved workflow or agent: its name, description, and template category and tags. */
export function saveAsTemplateDefaults(source: TemplateSource): SaveAsTemplateFormValues {
  return {
    name: source.name.slice(0, 100),
    description: source.description ?? '',
    category: source.templateCategory ?? '',
    tags: (source.templateTags ?? []).join(', '),
  };
}

/** What is sent: an empty description is none, the tags a list. */
export function saveAsTemplateBody(values: SaveAsTemplateFormOutput): SaveAsTemplateData {
  return {
    name: values.name,
    description: values.description ? values.description : null,
    category: values.category,
    tags: parseTags(values.tags),
  };
}

export function saveAsTemplatePath(kind: TemplateSourceKind, id: string): string {
  const endpoint = kind === 'workflow' ? endpoints.templates.saveWorkflow : endpoints.templates.saveAgent;
  return endpointUrl(endpoint.path, { id });
}

export function templateSavedToast(name: string): { title: string; description: string } {
  return {
    title: 'Template Saved',
    description: `"${name}" is now in Template Marketplace for your organization.`,
  };
}

export const SAVE_TEMPLATE_FAILED = 'The template could not be saved. Try again.';
