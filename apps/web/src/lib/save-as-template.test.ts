import { saveAsTemplateSchema } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { applyServerError } from './form-errors';
import {
  parseTags,
  SAVE_AS_TEMPLATE_FIELDS,
  saveAsTemplateBody,
  saveAsTemplateDefaults,
  saveAsTemplateFormSchema,
  saveAsTemplatePath,
  TEMPLATE_CATEGORY_SUGGESTIONS,
  templateSavedToast,
} from './save-as-template';

describe('parseTags', () => {
  it('splits on commas, trims, drops empty ones and keeps each tag once', () => {
    expect(parseTags('')).toEqual([]);
    expect(parseTags(' , ,')).toEqual([]);
    expect(parseTags('research, SEO ,, Research,  weekly   digest ')).toEqual([
      'research',
      'SEO',
      'weekly digest',
    ]);
  });
});

describe('saveAsTemplateDefaults', () => {
  it('starts from the saved name and description, and the category and tags of its template', () => {
    expect(
      saveAsTemplateDefaults({
        name: 'Weekly digest',
        description: null,
        templateCategory: 'Content Marketing',
        templateTags: ['blog', 'seo'],
      }),
    ).toEqual({ name: 'Weekly digest', description: '', category: 'Content Marketing', tags: 'blog, seo' });
    expect(saveAsTemplateDefaults({ name: 'Scout', description: 'Finds prices' })).toEqual({
      name: 'Scout',
      description: 'Finds prices',
      category: '',
      tags: '',
    });
  });
});

describe('saveAsTemplateFormSchema', () => {
  const valid = { name: ' Digest ', description: '  ', category: ' Sales Ops ', tags: 'a, b' };

  it('requires a name and a category', () => {
    const result = saveAsTemplateFormSchema.safeParse({ ...valid, name: '  ', category: '' });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toEqual({ name: 'Name is required', category: 'Category is required' });
  });

  it('allows at most 10 tags of at most 40 characters', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`).join(',');
    expect(saveAsTemplateFormSchema.safeParse({ ...valid, tags: eleven }).error?.issues[0].message).toBe(
      'At most 10 tags',
    );
    expect(saveAsTemplateFormSchema.safeParse({ ...valid, tags: 'x'.repeat(41) }).success).toBe(false);
    expect(saveAsTemplateFormSchema.safeParse({ ...valid, tags: 'x'.repeat(40) }).success).toBe(true);
  });

  it('sends what the server accepts: trimmed, no empty description, tags as a list', () => {
    const body = saveAsTemplateBody(saveAsTemplateFormSchema.parse(valid));
    expect(body).toEqual({ name: 'Digest', description: null, category: 'Sales Ops', tags: ['a', 'b'] });
    expect(saveAsTemplateSchema.parse(body)).toEqual(body);
    expect(
      saveAsTemplateBody(saveAsTemplateFormSchema.parse({ ...valid, description: ' Makes a digest ' }))
        .description,
    ).toBe('Makes a digest');
  });
});

describe('save as template requests', () => {
  it('posts to the workflow or the agent', () => {
    expect(saveAsTemplatePath('workflow', 'w 1')).toBe('/api/workflows/w%201/save-as-template');
    expect(saveAsTemplatePath('agent', 'a1')).toBe('/api/agents/a1/save-as-template');
  });

  it("offers the marketplace's categories", () => {
    expect(TEMPLATE_CATEGORY_SUGGESTIONS).toEqual([
      'Content Marketing',
      'Customer Service',
      'Email Marketing',
      'Business Intelligence',
    ]);
  });

  it('says where the template went', () => {
    expect(templateSavedToast('Digest')).toEqual({
      title: 'Template Saved',
      description: '"Digest" is now in Template Marketplace for your organization.',
    });
  });

  it("puts the server's field errors under their fields (a tag's error under Tags)", () => {
    const onFields: Record<string, string> = {};
    const banner = applyServerError(
      { status: 400, message: 'Invalid', errors: [{ path: 'tags.2', message: 'Too long' }] },
      SAVE_AS_TEMPLATE_FIELDS,
      (name, message) => (onFields[name] = message),
      'Try again.',
    );
    expect({ onFields, banner }).toEqual({ onFields: { tags: 'Too long' }, banner: null });
    expect(
      applyServerError(
        { status: 404, message: 'Workflow not found', errors: [] },
        SAVE_AS_TEMPLATE_FIELDS,
        () => undefined,
        'Try again.',
      ),
    ).toBe('Workflow not found');
  });
});
