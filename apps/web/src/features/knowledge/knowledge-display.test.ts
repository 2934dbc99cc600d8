import { describe, expect, it } from 'vitest';

import {
  countLabel,
  DEFAULT_KNOWLEDGE_FILTERS,
  documentStatusTone,
  embeddingProviderLabel,
  filterKnowledgeBases,
  formatScore,
  hasActiveKnowledgeFilters,
  hasPendingDocuments,
  knowledgeBasePath,
  mediaTypeLabel,
  storageTotals,
} from './knowledge-display';

const bases = [
  {
    name: 'Product FAQ',
    description: 'Answers for support',
    embeddingProvider: 'openai' as const,
    embeddingModel: 'text-embedding-3-small',
    documentCount: 3,
    chunkCount: 40,
    sizeBytes: 12_000,
  },
  {
    name: 'Price lists',
    description: null,
    embeddingProvider: 'local' as const,
    embeddingModel: 'nomic-embed-text',
    documentCount: 1,
    chunkCount: 5,
    sizeBytes: 800,
  },
];

describe('storageTotals', () => {
  it("adds up the organization's knowledge bases", () => {
    expect(storageTotals(bases)).toEqual({ knowledgeBases: 2, documents: 4, chunks: 45, bytes: 12_800 });
  });

  it('is all zeros without any', () => {
    expect(storageTotals([])).toEqual({ knowledgeBases: 0, documents: 0, chunks: 0, bytes: 0 });
  });
});

describe('document status', () => {
  it('colours ready green, failed red, processing blue and queued gray', () => {
    expect(documentStatusTone('ready')).toBe('green');
    expect(documentStatusTone('failed')).toBe('red');
    expect(documentStatusTone('processing')).toBe('blue');
    expect(documentStatusTone('queued')).toBe('gray');
    expect(documentStatusTone('other')).toBe('gray');
  });

  it('keeps refreshing while a document is queued or processing', () => {
    expect(hasPendingDocuments(undefined)).toBe(false);
    expect(hasPendingDocuments([{ status: 'ready' }, { status: 'failed' }])).toBe(false);
    expect(hasPendingDocuments([{ status: 'ready' }, { status: 'queued' }])).toBe(true);
    expect(hasPendingDocuments([{ status: 'processing' }])).toBe(true);
  });
});

describe('labels', () => {
  it('names the connections and the document types', () => {
    expect(embeddingProviderLabel('openai')).toBe('OpenAI');
    expect(embeddingProviderLabel('local')).toBe('Local');
    expect(embeddingProviderLabel('custom')).toBe('Custom');
    expect(mediaTypeLabel('text/markdown')).toBe('Markdown');
    expect(mediaTypeLabel('text/csv')).toBe('CSV');
    expect(mediaTypeLabel('text/plain')).toBe('Text');
    expect(mediaTypeLabel('text/html')).toBe('HTML');
    expect(mediaTypeLabel('application/pdf')).toBe('PDF');
  });

  it('counts in words', () => {
    expect(countLabel(1, 'document')).toBe('1 document');
    expect(countLabel(0, 'chunk')).toBe('0 chunks');
    expect(countLabel(12345, 'chunk')).toBe('12,345 chunks');
  });

  it('shows a similarity as a percentage, never below 0% or above 100%', () => {
    expect(formatScore(0.8734)).toBe('87%');
    expect(formatScore(1)).toBe('100%');
    expect(formatScore(-0.2)).toBe('0%');
    expect(formatScore(Number.NaN)).toBe('0%');
  });

  it('links a knowledge base by its id', () => {
    expect(knowledgeBasePath('kb 1')).toBe('/knowledge/kb%201');
  });
});

describe('filterKnowledgeBases', () => {
  it('finds by name, description or model in any case', () => {
    const search = (text: string) =>
      filterKnowledgeBases(bases, { ...DEFAULT_KNOWLEDGE_FILTERS, search: text }).map((base) => base.name);
    expect(search('faq')).toEqual(['Product FAQ']);
    expect(search('SUPPORT')).toEqual(['Product FAQ']);
    expect(search('nomic')).toEqual(['Price lists']);
    expect(search('  ')).toEqual(['Product FAQ', 'Price lists']);
  });

  it('filters by embedding connection', () => {
    expect(filterKnowledgeBases(bases, { search: '', provider: 'local' }).map((base) => base.name)).toEqual([
      'Price lists',
    ]);
    expect(hasActiveKnowledgeFilters({ search: '', provider: 'local' })).toBe(true);
    expect(hasActiveKnowledgeFilters(DEFAULT_KNOWLEDGE_FILTERS)).toBe(false);
  });
});
