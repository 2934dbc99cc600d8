import { and, asc, eq, or, sql } from 'drizzle-orm';
import { knowledgeBases, knowledgeChunks, knowledgeDocuments, type Db } from '@crewline/db';
import type { EmbeddingProvider, KnowledgeMediaType } from '@crewline/contracts';
import { channels } from '../../platform/notifications/channels';
import { wakeUpColumn } from '../../platform/notifications/statement';
import { lockStorage, storageOf, storageUsed, type StorageLimit } from './knowledge-storage';

/** A document a worker took, with what its ingestion needs of its knowledge base. */
export type ClaimedDocument = {
  id: string;
  organizationId: string;
  knowledgeBaseId: string;
  name: string;
  mediaType: KnowledgeMediaType;
  /** Its text; empty for a PDF, whose bytes are `file`. */
  content: string;
  file: Buffer | null;
  /** The bytes of the upload (`content` or `file`). */
  sizeBytes: number;
  /** This attempt's number: its writes land only while it is still the document's attempt. */
  attempt: number;
  base: { embeddingProvider: EmbeddingProvider; embeddingModel: string; dimensions: number | null };
};

/** A chunk ready to store: its text and its embedding as float32 little-endian bytes. */
export type ChunkToStore = { text: string; embedding: Buffer };

/** What storing a document's chunks came to. */
export type StoreOutcome =
  | { stored: true }
  /** The knowledge base holds vectors of another length (set by an earlier document). */
  | { stored: false; holds: number }
  /** The document is no longer this attempt's: deleted, or taken by another worker. */
  | { stored: false; lost: true }
  /** Its text would take the organization past its knowledge storage quota. */
  | { stored: false; overQuota: true };

/** Rows per INSERT of chunks: far below Postgres's 65,535 parameters (6 a row). */
const INSERT_BATCH = 500;

const docs = knowledgeDocuments;

/** Free to take: queued, or processing with a lease that lapsed (its worker died). */
const claimable = (now: Date) =>
  or(eq(docs.status, 'queued'), and(eq(docs.status, 'processing'), sql`${docs.leaseExpiresAt} < ${now}`));

/**
 * The workers' side of documents (modules/knowledge/knowledge-worker.ts): the document's row is its
 * queue entry, claimed under a lease as runs are (modules/executions/executions.repository.ts).
 */
export function createIngestionRepository(db: Db) {
  /** Writes of an attempt land only while it is still the document's current, processing attempt. */
  const owned = (id: string, attempt: number) =>
    and(eq(docs.id, id), eq(docs.attempt, attempt), eq(docs.status, 'processing'));

  return {
    /**
     * Takes the oldest document free to take for a new attempt, skipping rows another worker is
     * claiming at the same moment, in one statement. `more` says whether another one was waiting.
     */
    async claimNext(leaseMs: number): Promise<(ClaimedDocument & { more: boolean }) | undefined> {
      const now = new Date();
      const next = db
        .select({ id: docs.id })
        .from(docs)
        .where(claimable(now))
        .orderBy(asc(docs.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      const [row] = await db
        .update(docs)
        .set({
          status: 'processing',
          attempt: sql`${docs.attempt} + 1`,
          leaseExpiresAt: new Date(now.getTime() + leaseMs),
          error: null,
        })
        .where(eq(docs.id, sql`(${next})`))
        .returning({
          id: docs.id,
          organizationId: docs.organizationId,
          knowledgeBaseId: docs.knowledgeBaseId,
          name: docs.name,
          mediaType: docs.mediaType,
          content: docs.content,
          file: docs.file,
          sizeBytes: docs.sizeBytes,
          attempt: docs.attempt,
          base: sql<ClaimedDocument['base']>`(select json_build_object(
            'embeddingProvider', b.embedding_provider, 'embeddingModel', b.embedding_model,
            'dimensions', b.dimensions)
            from knowledge_bases b where b.id = "knowledge_documents"."knowledge_base_id")`,
          more: sql<boolean>`exists (select 1 from knowledge_documents o
            where (o.status = 'queued' or (o.status = 'processing' and o.lease_expires_at < ${now}))
            and o.id <> "knowledge_documents"."id")`,
        });
      return row;
    },

    /** Extends the attempt's lease; false once the document is no longer this attempt's (deleted, taken over). */
    async renewLease(id: string, attempt: number, leaseMs: number): Promise<boolean> {
      const rows = await db
        .update(docs)
        .set({ leaseExpiresAt: new Date(Date.now() + leaseMs) })
        .where(owned(id, attempt))
        .returning({ id: docs.id });
      return rows.length === 1;
    },

    /**
     * A stopping worker hands the document back: queued again, and the workers are woken (the NOTIFY
     * is sent at commit) so another takes it at once.
     */
    async release(id: string, attempt: number): Promise<void> {
      await db
        .update(docs)
        .set({ status: 'queued', leaseExpiresAt: null })
        .where(owned(id, attempt))
        .returning({ woke: wakeUpColumn(channels.knowledge, sql`"knowledge_documents"."id"::text`) });
    },

    /** Fails the attempt's document with the reason (it keeps no chunks); false when it was no longer its. */
    async fail(id: string, attempt: number, error: string): Promise<boolean> {
      const rows = await db
        .update(docs)
        .set({ status: 'failed', error, chunkCount: 0, textBytes: 0, leaseExpiresAt: null })
        .where(owned(id, attempt))
        .returning({ id: docs.id });
      return rows.length === 1;
    },

    /** Bytes the organization's other documents take of its knowledge storage (knowledge-storage.ts). */
    async storageUsedBesides(organizationId: string, documentId: string): Promise<number> {
      return storageUsed(db, organizationId, documentId);
    },

    /**
     * Stores every chunk and marks the document ready, in one transaction: nothing is half-stored.
     * With a quota, the organization's storage lock is taken first and the document's share (its
     * `textBytes` counted) must fit beside the others'. The knowledge base's row is locked next, so
     * two documents embedded at once cannot set two different lengths; the first document sets it,
     * and the knowledge base moves to a new version.
     */
    async store(
      document: Pick<ClaimedDocument, 'id' | 'attempt' | 'knowledgeBaseId' | 'organizationId' | 'sizeBytes'>,
      chunks: ChunkToStore[],
      dimensions: number,
      storage: { textBytes: number; limit: StorageLimit },
    ): Promise<StoreOutcome> {
      return db.transaction(async (tx) => {
        const { maxBytes } = storage.limit;
        if (maxBytes !== null) {
          await lockStorage(tx, document.organizationId);
          const others = await storageUsed(tx, document.organizationId, document.id);
          if (others + storageOf(document.sizeBytes, storage.textBytes) > maxBytes) {
            return { stored: false, overQuota: true };
          }
        }
        const [base] = await tx
          .select({ dimensions: knowledgeBases.dimensions })
          .from(knowledgeBases)
          .where(eq(knowledgeBases.id, document.knowledgeBaseId))
          .for('update');
        if (!base) return { stored: false, lost: true };
        if (base.dimensions !== null && base.dimensions !== dimensions) {
          return { stored: false, holds: base.dimensions };
        }
        const marked = await tx
          .update(docs)
          .set({
            status: 'ready',
            error: null,
            chunkCount: chunks.length,
            textBytes: storage.textBytes,
            leaseExpiresAt: null,
          })
          .where(owned(document.id, document.attempt))
          .returning({ id: docs.id });
        if (marked.length === 0) return { stored: false, lost: true };
        for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
          await tx.insert(knowledgeChunks).values(
            chunks.slice(start, start + INSERT_BATCH).map((chunk, i) => ({
              documentId: document.id,
              knowledgeBaseId: document.knowledgeBaseId,
              organizationId: document.organizationId,
              chunkIndex: start + i,
              text: chunk.text,
              embedding: chunk.embedding,
            })),
          );
        }
        await tx
          .update(knowledgeBases)
          .set({
            version: sql`${knowledgeBases.version} + 1`,
            dimensions: sql`coalesce(${knowledgeBases.dimensions}, ${dimensions})`,
          })
          .where(eq(knowledgeBases.id, document.knowledgeBaseId));
        return { stored: true };
      });
    },
  };
}
export type IngestionRepository = ReturnType<typeof createIngestionRepository>;
