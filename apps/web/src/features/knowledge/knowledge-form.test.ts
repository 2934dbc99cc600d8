import { DEFAULT_EMBEDDING_MODEL } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  createKnowledgeBody,
  defaultPasteName,
  emptyKnowledgeForm,
  knowledgeFormSchema,
  updateKnowledgeBody,
} from './knowledge-form';

describe('knowledge base form', () => {
  it('starts with OpenAI and text-embedding-3-small', () => {
    expect(emptyKnowledgeForm()).toMatchObject({
      embeddingProvider: 'openai',
      embeddingModel: DEFAULT_EMBEDDING_MODEL,
    });
    expect(DEFAULT_EMBEDDING_MODEL).toBe('text-embedding-3-small');
  });

  it('requires a name and a model, trimmed', () => {
    const result = knowledgeFormSchema.safeParse({
      ...emptyKnowledgeForm(),
      name: '   ',
      embeddingModel: ' ',
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(messages).toEqual([
      ['name', 'Name is required'],
      ['embeddingModel', 'Model is required'],
    ]);
  });

  it('sends a blank description as none, and only name and description when renaming', () => {
    const values = knowledgeFormSchema.parse({
      name: '  Handbook ',
      description: '  ',
      embeddingProvider: 'custom',
      embeddingModel: ' bge-small ',
    });
    expect(createKnowledgeBody(values)).toEqual({
      name: 'Handbook',
      description: null,
      embeddingProvider: 'custom',
      embeddingModel: 'bge-small',
    });
    expect(updateKnowledgeBody({ ...values, description: 'HR policies' })).toEqual({
      name: 'Handbook',
      description: 'HR policies',
    });
  });

  it('names pasted text after the time it was pasted', () => {
    expect(defaultPasteName(new Date(2026, 10, 6, 9, 5))).toBe('Pasted text 2026-11-06 09:05');
  });
});

describe('paste text form', () => {
  it('needs a name and some text', async () => {
    const { pasteTextSchema } = await import('./knowledge-form');
    const result = pasteTextSchema.safeParse({ name: ' ', content: '  \n' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Name is required',
      'The document is empty',
    ]);
    expect(pasteTextSchema.parse({ name: ' Notes ', content: 'Refunds take 5 days.' })).toEqual({
      name: 'Notes',
      content: 'Refunds take 5 days.',
    });
  });
});
