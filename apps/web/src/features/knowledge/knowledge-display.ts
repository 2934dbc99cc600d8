// How the Knowledge pages show knowledge bases, documents and search hits (docs/product-rules.md,
// Knowledge). Pure, so the pages only lay them out.
import type {
  EmbeddingProvider,
  KnowledgeBase,
  KnowledgeDocument,
  KnowledgeDocumentStatus,
  KnowledgeMediaType,
} from '@crewline/contracts';

import type { StatusTone } from '@/components/status-badge';

/** Shared with the agent form's memory settings. */
export { EMBEDDING_PROVIDERS, embeddingProviderLabel } from '@/lib/embedding-connections';

const MEDIA_TYPE_LABELS: Record<KnowledgeMediaType, string> = {
  'text/plain': 'Text',
  'text/markdown': 'Markdown',
  'text/html': 'HTML',
  'text/csv': 'CSV',
  'application/pdf': 'PDF',
};

export function mediaTypeLabel(mediaType: string): string {
  return MEDIA_TYPE_LABELS[mediaType as KnowledgeMediaType] ?? mediaType;
}

const STATUS_TONES: Record<KnowledgeDocumentStatus, StatusTone> = {
  queued: 'gray',
  processing: 'blue',
  ready: 'green',
  failed: 'red',
};

export function documentStatusTone(status: string): StatusTone {
  return STATUS_TONES[status as KnowledgeDocumentStatus] ?? 'gray';
}

/** Queued and processing documents still change; the page keeps their list fresh. */
export function isDocumentPending(status: string): boolean {
  return status === 'queued' || status === 'processing';
}

export function hasPendingDocuments(documents: readonly Pick<KnowledgeDocument, 'status'>[] | undefined) {
  return !!documents?.some((document) => isDocumentPending(document.status));
}

export interface StorageTotals {
  knowledgeBases: number;
  documents: number;
  chunks: number;
  bytes: number;
}

/** The organization's storage: every knowledge base's documents, chunks and bytes added up. */
export function storageTotals(
  bases: readonly Pick<KnowledgeBase, 'documentCount' | 'chunkCount' | 'sizeBytes'>[],
): StorageTotals {
  return bases.reduce<StorageTotals>(
    (totals, base) => ({
      knowledgeBases: totals.knowledgeBases + 1,
      documents: totals.documents + base.documentCount,
      chunks: totals.chunks + base.chunkCount,
      bytes: totals.bytes + base.sizeBytes,
    }),
    { knowledgeBases: 0, documents: 0, chunks: 0, bytes: 0 },
  );
}

/** '1 document', '3 chunks'. */
export function countLabel(count: number, noun: string): string {
  return `${new Intl.NumberFormat('en-US').format(count)} ${count === 1 ? noun : `${noun}s`}`;
}

/** A cosine similarity (-1 to 1) as a percentage of closeness: 0.8734 → '87%', below zero → '0%'. */
export function formatScore(score: number): string {
  if (!Number.isFinite(score)) return '0%';
  return `${Math.round(Math.min(1, Math.max(0, score)) * 100)}%`;
}

export interface KnowledgeFilters {
  search: string;
  provider: 'all' | EmbeddingProvider;
}

export const DEFAULT_KNOWLEDGE_FILTERS: KnowledgeFilters = { search: '', provider: 'all' };

export function hasActiveKnowledgeFilters(filters: KnowledgeFilters): boolean {
  return filters.search.trim() !== '' || filters.provider !== 'all';
}

/** Search in name, description and model (any case), and the embedding connection. */
export function filterKnowledgeBases<
  T extends Pick<KnowledgeBase, 'name' | 'description' | 'embeddingModel' | 'embeddingProvider'>,
>(bases: readonly T[], filters: KnowledgeFilters): T[] {
  const needle = filters.search.trim().toLowerCase();
  return bases.filter((base) => {
    if (filters.provider !== 'all' && base.embeddingProvider !== filters.provider) return false;
    if (!needle) return true;
    return [base.name, base.description ?? '', base.embeddingModel].some((text) =>
      text.toLowerCase().includes(needle),
    );
  });
}

/** The URL of a knowledge base's page. */
export function knowledgeBasePath(id: string): string {
  return `/knowledge/${encodeURIComponent(id)}`;
}
