import {
  createKnowledgeBaseSchema,
  isBinaryKnowledgeMediaType,
  utf8Bytes,
  type AddKnowledgeDocumentInput,
  type CreateKnowledgeBaseInput,
  type KnowledgeBase,
  type KnowledgeDocument,
  type KnowledgeSearchHit,
  type UpdateKnowledgeBaseInput,
  type Usage,
} from '@crewline/contracts';
import { AppError, BadRequestError, NotFoundError, PlanLimitError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import { LlmCallError, LlmConfigurationError, type LlmConnection, type LlmGateway } from '../../platform/llm';
import { dimensionMismatch } from './ingest-document';
import type { DocumentToAdd, KnowledgeRepository, StoredKnowledgeBase } from './knowledge.repository';
import type { KnowledgeUsagePresenter } from './knowledge-usage.presenter';
import { uploadOverQuota, type StorageLimit } from './knowledge-storage';
import type { VectorIndex } from './vector-index';
import { AnnUnavailableError, type AnnIndex, type AnnSource } from './ann-index';
import { decodeVectors } from '../../platform/llm/vector-codec';

const baseNotFound = 'Knowledge base not found';
const documentNotFound = 'Document not found';

/** The API's knowledge base (the version stays inside). */
const toDto = ({ organizationId: _org, version: _version, ...base }: StoredKnowledgeBase): KnowledgeBase =>
  base;

/** The embedding provider failed or answered what the knowledge base cannot use (not the caller's input). */
class EmbeddingProviderError extends AppError {
  constructor(message: string) {
    super(502, message);
  }
}

export function createKnowledgeService(deps: {
  repository: KnowledgeRepository;
  /** What searches a knowledge base (its delete dialog's read model). */
  presenter: KnowledgeUsagePresenter;
  events: Pick<EventBus, 'publish'>;
  llm: Pick<LlmGateway, 'embed'>;
  connectionFor(organizationId: string, provider: KnowledgeBase['embeddingProvider']): Promise<LlmConnection>;
  /** One per process (app.ts): each knowledge base's vectors, loaded once per version. */
  index: VectorIndex;
  /**
   * One per process (app.ts): approximate indexes of the knowledge bases of `minChunks` chunks or
   * more (KNOWLEDGE_ANN_MIN_CHUNKS); smaller ones are searched exactly.
   */
  ann?: { index: AnnIndex; minChunks: number };
  /** The organization's knowledge storage quota, from its plan (billing). */
  storageLimit(organizationId: string): Promise<StorageLimit>;
}) {
  const { repository, events } = deps;

  async function stored(organizationId: string, id: string): Promise<StoredKnowledgeBase> {
    const base = await repository.get(organizationId, requireUuid(id, baseNotFound));
    if (!base) throw new NotFoundError(baseNotFound);
    return base;
  }

  /** The query's embedding, with the knowledge base's model through the organization's connection. */
  async function embedQuery(base: StoredKnowledgeBase, query: string): Promise<number[]> {
    let vector: number[] | undefined;
    try {
      const connection = await deps.connectionFor(base.organizationId, base.embeddingProvider);
      [vector] = (
        await deps.llm.embed({
          connection,
          model: base.embeddingModel,
          texts: [query],
          meter: { organizationId: base.organizationId, source: 'knowledge' },
        })
      ).embeddings;
    } catch (error) {
      if (error instanceof LlmConfigurationError) throw new BadRequestError(error.message);
      if (error instanceof LlmCallError)
        throw new EmbeddingProviderError(`The embedding model failed: ${error.message}`);
      throw error;
    }
    if (!vector) throw new EmbeddingProviderError('The embedding model answered no vector.');
    if (base.dimensions !== null && vector.length !== base.dimensions) {
      throw new EmbeddingProviderError(dimensionMismatch(vector.length, base.dimensions));
    }
    return vector;
  }

  /**
   * The closest chunks' ids: the `topK` of exact search, or past the threshold more candidates from
   * the approximate index (`approximate`), for the caller to rank by their exact scores.
   */
  async function nearest(
    base: StoredKnowledgeBase,
    dimensions: number,
    vector: number[],
    topK: number,
  ): Promise<{ hits: { id: string; score: number }[]; approximate: boolean }> {
    const exact = async () => ({
      approximate: false,
      hits: await deps.index.search(
        base.id,
        String(base.version),
        async () => {
          const { ids, embeddings } = await repository.vectors(base.id);
          return { ids, vectors: decodeVectors(embeddings, dimensions), dimensions };
        },
        vector,
        topK,
      ),
    });
    if (!deps.ann) return exact();
    if (base.chunkCount < deps.ann.minChunks) {
      // Below it again (documents deleted): its approximate index leaves memory (its files stay).
      deps.ann.index.release(base.id);
      return exact();
    }
    const source: AnnSource = {
      documents: () => repository.readyDocuments(base.id),
      async vectors(documentIds) {
        const {
          ids,
          documentIds: owners,
          embeddings,
        } = await repository.documentVectors(base.id, documentIds);
        return { ids, documentIds: owners, vectors: decodeVectors(embeddings, dimensions) };
      },
    };
    try {
      const found = await deps.ann.index.search(
        base.id,
        String(base.version),
        { dimensions, chunkCount: base.chunkCount },
        source,
        vector,
        Math.max(4 * topK, 20),
      );
      // Its exact vectors, loaded while the index was built, are no longer needed.
      deps.index.forget(base.id);
      return { hits: found, approximate: true };
    } catch (error) {
      if (!(error instanceof AnnUnavailableError)) throw error;
      // Until its index is ready: exactly, when its vectors fit the exact search's memory.
      if (deps.index.fits(base.chunkCount, dimensions)) return exact();
      throw new AppError(503, error.message);
    }
  }

  return {
    /** Stops the approximate indexes' threads (the app closes). */
    async close() {
      await deps.ann?.index.close();
    },

    /** Newest first, each with its document count, chunk count and size. */
    async list(organizationId: string): Promise<KnowledgeBase[]> {
      return (await repository.list(organizationId)).map(toDto);
    },

    async get(organizationId: string, id: string): Promise<KnowledgeBase> {
      return toDto(await stored(organizationId, id));
    },

    async create(
      organizationId: string,
      userId: string,
      input: CreateKnowledgeBaseInput,
    ): Promise<KnowledgeBase> {
      return toDto(await repository.create(organizationId, userId, createKnowledgeBaseSchema.parse(input)));
    },

    async update(
      organizationId: string,
      id: string,
      patch: UpdateKnowledgeBaseInput,
    ): Promise<KnowledgeBase> {
      const base = await repository.update(organizationId, requireUuid(id, baseNotFound), patch);
      if (!base) throw new NotFoundError(baseNotFound);
      return toDto(base);
    },

    /** What searches it, for its delete dialog: another organization's knowledge base is not found. */
    async usage(organizationId: string, id: string): Promise<Usage> {
      const usage = await deps.presenter.usage(organizationId, requireUuid(id, baseNotFound));
      if (!usage) throw new NotFoundError(baseNotFound);
      return usage;
    },

    /** With its documents and chunks. */
    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, baseNotFound)))) {
        throw new NotFoundError(baseNotFound);
      }
      deps.index.forget(id.toLowerCase());
      deps.ann?.index.forget(id.toLowerCase());
    },

    async documents(organizationId: string, id: string): Promise<KnowledgeDocument[]> {
      const base = await stored(organizationId, id);
      return repository.documents(organizationId, base.id);
    },

    /**
     * Queues the document for the workers (never ingested in the request); it answers as queued. A
     * document that does not fit in the organization's knowledge storage answers 402 (plan_limit)
     * and nothing is stored.
     */
    async addDocument(
      organizationId: string,
      id: string,
      input: AddKnowledgeDocumentInput,
    ): Promise<KnowledgeDocument> {
      const base = await stored(organizationId, id);
      const limit = await deps.storageLimit(organizationId);
      const outcome = await repository.addDocument(
        organizationId,
        base.id,
        documentToAdd(input),
        limit.maxBytes,
      );
      if ('refused' in outcome) {
        throw new PlanLimitError(
          uploadOverQuota(limit.plan, limit.maxBytes!, outcome.used),
          'knowledge_storage',
          limit.plan,
        );
      }
      const document = outcome.added;
      events.publish({
        type: 'knowledge_document_updated',
        organizationId,
        knowledgeBaseId: base.id,
        documentId: document.id,
      });
      return document;
    },

    /** Bytes of the organization's knowledge storage in use (the billing page shows them). */
    async storageUsed(organizationId: string): Promise<number> {
      return repository.storageUsed(organizationId);
    },

    /** With its chunks: searches no longer find them. */
    async removeDocument(organizationId: string, id: string, documentId: string): Promise<void> {
      const base = await stored(organizationId, id);
      const removed = await repository.removeDocument(
        organizationId,
        base.id,
        requireUuid(documentId, documentNotFound),
      );
      if (!removed) throw new NotFoundError(documentNotFound);
      events.publish({
        type: 'knowledge_document_updated',
        organizationId,
        knowledgeBaseId: base.id,
        documentId: documentId.toLowerCase(),
      });
    },

    /**
     * The `topK` chunks closest to the query by cosine similarity, best first, with their document's
     * name and the score rounded to 4 decimals. A knowledge base with no ready document answers none
     * (and calls no model). The tool runtime calls it too.
     */
    async search(
      organizationId: string,
      knowledgeBaseId: string,
      query: string,
      topK: number,
    ): Promise<KnowledgeSearchHit[]> {
      const base = await stored(organizationId, knowledgeBaseId);
      if (base.chunkCount === 0 || base.dimensions === null) return [];
      const vector = await embedQuery(base, query);
      const { hits: candidates, approximate } = await nearest(base, base.dimensions, vector, topK);
      const read = await repository.chunks(
        organizationId,
        base.id,
        candidates.map((hit) => hit.id),
        { embeddings: approximate },
      );
      const chunks = new Map(read.map((c) => [c.id, c]));
      // The approximate index's candidates ranked again by their exact score (its vectors are f16),
      // so a knowledge base past the threshold scores as exact search does.
      const found = approximate ? rescore(candidates, chunks, vector).slice(0, topK) : candidates;
      // In the index's order; a chunk deleted since the index was loaded is left out.
      return found.flatMap(({ id, score }) => {
        const chunk = chunks.get(id);
        return chunk
          ? [
              {
                documentId: chunk.documentId,
                documentName: chunk.documentName,
                chunkIndex: chunk.chunkIndex,
                text: chunk.text,
                score: Math.round(score * 10_000) / 10_000,
              },
            ]
          : [];
      });
    },
  };
}
export type KnowledgeService = ReturnType<typeof createKnowledgeService>;

/** The candidates still stored, by their cosine with the query from their float32 vectors, best first. */
function rescore(
  candidates: { id: string; score: number }[],
  chunks: Map<string, { embedding?: Buffer }>,
  query: number[],
) {
  const queryNorm = Math.hypot(...query);
  return candidates
    .flatMap(({ id }) => {
      const embedding = chunks.get(id)?.embedding;
      if (!embedding) return [];
      const vector = decodeVectors([embedding], query.length);
      let dot = 0;
      let norm = 0;
      for (let i = 0; i < query.length; i++) {
        dot += vector[i] * query[i];
        norm += vector[i] * vector[i];
      }
      return [{ id, score: norm > 0 && queryNorm > 0 ? dot / Math.sqrt(norm) / queryNorm : 0 }];
    })
    .sort((a, b) => b.score - a.score);
}

/**
 * What is stored of a document sent: its text, or a PDF's bytes decoded from base64 (the contract has
 * checked the combination, the base64 and the size). Its text is read by the workers, never here.
 */
function documentToAdd(input: AddKnowledgeDocumentInput): DocumentToAdd {
  const { name, mediaType } = input;
  if (isBinaryKnowledgeMediaType(mediaType)) {
    const file = Buffer.from(input.contentBase64 ?? '', 'base64');
    return { name, mediaType, content: '', file, sizeBytes: file.length };
  }
  const content = input.content ?? '';
  return { name, mediaType, content, file: null, sizeBytes: utf8Bytes(content) };
}
