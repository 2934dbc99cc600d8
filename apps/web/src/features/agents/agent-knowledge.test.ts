import { AGENT_KNOWLEDGE_BASES_MAX } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { canPickMore, knowledgeBaseSummary, toggledKnowledgeBases } from './agent-knowledge';

describe('picking knowledge bases', () => {
  it('adds in the order picked, removes what is cleared, and never twice', () => {
    let picked = toggledKnowledgeBases([], 'faq', true);
    picked = toggledKnowledgeBases(picked, 'pricing', true);
    expect(picked).toEqual(['faq', 'pricing']);
    expect(toggledKnowledgeBases(picked, 'faq', true)).toEqual(['faq', 'pricing']);
    expect(toggledKnowledgeBases(picked, 'faq', false)).toEqual(['pricing']);
    expect(toggledKnowledgeBases(picked, 'other', false)).toEqual(['faq', 'pricing']);
  });

  it(`stops at ${AGENT_KNOWLEDGE_BASES_MAX}, the API's limit`, () => {
    const full = Array.from({ length: AGENT_KNOWLEDGE_BASES_MAX }, (_, i) => `kb-${i}`);
    expect(canPickMore(full)).toBe(false);
    expect(toggledKnowledgeBases(full, 'one-more', true)).toEqual(full);
    expect(canPickMore(full.slice(1))).toBe(true);
  });

  it('describes a base by its description, else by how many documents it holds', () => {
    expect(knowledgeBaseSummary({ description: ' Refunds and returns ', documentCount: 3 })).toBe(
      'Refunds and returns',
    );
    expect(knowledgeBaseSummary({ description: null, documentCount: 1 })).toBe('1 document');
    expect(knowledgeBaseSummary({ description: '', documentCount: 0 })).toBe('0 documents');
  });
});
