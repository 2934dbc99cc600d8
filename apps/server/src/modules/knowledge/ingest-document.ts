import type { Logger } from 'pino';
import type { RealtimeEvent } from '@crewline/contracts';
import { BudgetExceededError } from '../../platform/errors';
import { LlmCallError, LlmConfigurationError, type LlmConnection, type LlmGateway } from '../../platform/llm';
import type { EventBus } from '../../platform/events';
import { chunkText } from './chunk-text';
import type { ExtractionLimits } from './extract-in-worker';
import { readDocumentText } from './read-document-text';
import { storageOf, textOverQuota, type StorageLimit } from './knowledge-storage';
import { KnowledgeInputError } from './knowledge-input-error';
import type { ChunkToStore, ClaimedDocument, IngestionRepository } from './ingestion.repository';
import { encodeVector } from '../../platform/llm/vector-codec';

/** How long a worker holds a document before another may take it, unless it renews the lease. */
const INGESTION_LEASE_MS = 60_000;
/** Attempts whose worker died before a document is failed rather than taken again. */
const INGESTION_MAX_ATTEMPTS = 5;
/** Chunks per call of the gateway (which splits them into requests and retries each). */
const EMBED_BATCH = 256;

export const dimensionMismatch = (answered: number, holds: number) =>
  `The embedding model answered vectors of ${answered} dimensions; this knowledge base holds ${holds}.`;

/** A failure the document shows as its reason. */
class IngestionFailure extends Error {}

export type IngestionDeps = {
  repository: IngestionRepository;
  llm: Pick<LlmGateway, 'embed'>;
  connectionFor(
    organizationId: string,
    provider: ClaimedDocument['base']['embeddingProvider'],
  ): Promise<LlmConnection>;
  events: Pick<EventBus, 'publish'>;
  /** Bounds of reading a document's text (pages, time, memory; the text's 20 MiB). */
  extraction: ExtractionLimits;
  /** The organization's knowledge storage quota, from its plan (billing). */
  storageLimit(organizationId: string): Promise<StorageLimit>;
  logger?: Logger;
  leaseMs?: number;
};

/**
 * Ingestion of queued documents, one claim at a time: take the oldest, read its text (PDF, HTML and
 * CSV on a bounded thread: read-document-text.ts), check that the text fits in the organization's
 * knowledge storage, cut it into chunks, embed them in batches with the knowledge base's model (the
 * organization's connection of its provider), check every vector's length, then store all chunks and
 * mark it ready in one transaction (which checks the storage again, under its lock), or fail it with a
 * reason the user can act on. The lease is renewed while it works; a
 * lease that could not be renewed (the document was deleted or taken over) stops the work.
 */
export function createIngestion(deps: IngestionDeps) {
  const { repository, events } = deps;
  const leaseMs = deps.leaseMs ?? INGESTION_LEASE_MS;
  const changed = (doc: ClaimedDocument): RealtimeEvent => ({
    type: 'knowledge_document_updated',
    organizationId: doc.organizationId,
    knowledgeBaseId: doc.knowledgeBaseId,
    documentId: doc.id,
  });

  async function embedAll(
    doc: ClaimedDocument,
    texts: string[],
    abort: AbortController,
  ): Promise<ChunkToStore[]> {
    const connection = await deps.connectionFor(doc.organizationId, doc.base.embeddingProvider);
    let dimensions = doc.base.dimensions;
    const chunks: ChunkToStore[] = [];
    for (let start = 0; start < texts.length; start += EMBED_BATCH) {
      const batch = texts.slice(start, start + EMBED_BATCH);
      const { embeddings } = await deps.llm.embed({
        connection,
        model: doc.base.embeddingModel,
        texts: batch,
        signal: abort.signal,
        meter: { organizationId: doc.organizationId, source: 'knowledge' },
      });
      if (embeddings.length !== batch.length) {
        throw new IngestionFailure(
          `The embedding model answered ${embeddings.length} vectors for ${batch.length} chunks.`,
        );
      }
      // Between batches, the lease is renewed: a document deleted meanwhile stops here, not at the end.
      if (!(await repository.renewLease(doc.id, doc.attempt, leaseMs))) {
        abort.abort();
        return [];
      }
      for (const [i, vector] of embeddings.entries()) {
        // The first vector of a knowledge base's first document sets its length; every other must match.
        dimensions ??= vector.length;
        if (vector.length !== dimensions)
          throw new IngestionFailure(dimensionMismatch(vector.length, dimensions));
        chunks.push({ text: batch[i], embedding: encodeVector(vector) });
      }
    }
    return chunks;
  }

  /** Why the document failed, in words for its owner; undefined for what is not theirs to fix (a bug). */
  function reasonOf(error: unknown): string | undefined {
    if (error instanceof IngestionFailure || error instanceof KnowledgeInputError) return error.message;
    // A spent budget (modules/costs) says what to raise.
    if (error instanceof LlmConfigurationError || error instanceof BudgetExceededError) return error.message;
    if (error instanceof LlmCallError) return `The embedding model failed: ${error.message}`;
    return undefined;
  }

  async function ingest(doc: ClaimedDocument, stopping?: AbortSignal): Promise<void> {
    const abort = new AbortController();
    // The worker is stopping: the document goes back to the queue for another worker.
    const handBack = () => abort.abort();
    stopping?.addEventListener('abort', handBack, { once: true });
    // Renewed a few times per lease; a renewal refused means the document is no longer ours.
    const renew = setInterval(
      () => {
        repository.renewLease(doc.id, doc.attempt, leaseMs).then(
          (ours) => {
            if (!ours) abort.abort();
          },
          (err: unknown) => deps.logger?.warn({ err }, 'could not renew a document lease'),
        );
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    try {
      const text = await readDocumentText(doc, deps.extraction, abort.signal);
      if (abort.signal.aborted) return;
      const textBytes = Buffer.byteLength(text, 'utf8');
      const limit = await deps.storageLimit(doc.organizationId);
      // Before any embedding is paid for; storing checks again under the organization's lock.
      if (
        limit.maxBytes !== null &&
        (await repository.storageUsedBesides(doc.organizationId, doc.id)) +
          storageOf(doc.sizeBytes, textBytes) >
          limit.maxBytes
      ) {
        throw new IngestionFailure(textOverQuota(limit.plan, limit.maxBytes, textBytes));
      }
      const texts = chunkText(text);
      if (texts.length === 0) throw new IngestionFailure('The document has no text to index.');
      const chunks = await embedAll(doc, texts, abort);
      if (abort.signal.aborted) return;
      const outcome = await repository.store(doc, chunks, chunks[0].embedding.length / 4, {
        textBytes,
        limit,
      });
      if (outcome.stored) events.publish(changed(doc));
      else if ('holds' in outcome) {
        await fail(doc, dimensionMismatch(chunks[0].embedding.length / 4, outcome.holds));
      } else if ('overQuota' in outcome && limit.maxBytes !== null) {
        await fail(doc, textOverQuota(limit.plan, limit.maxBytes, textBytes));
      }
    } catch (error) {
      // Deleted or taken over meanwhile: whatever the call did is nobody's now.
      if (abort.signal.aborted) return;
      const reason = reasonOf(error);
      if (reason === undefined) {
        deps.logger?.error({ err: error, documentId: doc.id }, 'document ingestion failed');
        await fail(doc, 'The document could not be indexed: something went wrong on our side.');
      } else await fail(doc, reason);
    } finally {
      clearInterval(renew);
      stopping?.removeEventListener('abort', handBack);
      // A no-op unless the document is still this attempt's, unfinished.
      if (stopping?.aborted) await repository.release(doc.id, doc.attempt).catch(() => undefined);
    }
  }

  async function fail(doc: ClaimedDocument, reason: string) {
    if (await repository.fail(doc.id, doc.attempt, reason)) events.publish(changed(doc));
  }

  return {
    /**
     * Claims the next document and ingests it (`stopping` hands it back unfinished). Undefined when none was waiting; `more` when another
     * one is, so the worker looks again at once.
     */
    async ingestNext(stopping?: AbortSignal): Promise<{ more: boolean } | undefined> {
      const claimed = await repository.claimNext(leaseMs);
      if (!claimed) return undefined;
      const { more, ...doc } = claimed;
      events.publish(changed(doc));
      if (doc.attempt > INGESTION_MAX_ATTEMPTS) {
        await fail(doc, 'Indexing this document stopped several times; delete it and add it again.');
      } else await ingest(doc, stopping);
      return { more };
    },
  };
}
export type Ingestion = ReturnType<typeof createIngestion>;
