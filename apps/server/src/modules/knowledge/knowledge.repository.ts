import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { knowledgeBases, knowledgeChunks, knowledgeDocuments, type Db, type Tx } from '@crewline/db';
import type {
  CreateKnowledgeBaseInput,
  KnowledgeBase,
  KnowledgeDocument,
  KnowledgeMediaType,
  UpdateKnowledgeBaseInput,
} from '@crewline/contracts';
import { nothingToSet } from '../../platform/patch';
import { channels } from '../../platform/notifications/channels';
import { wakeUpColumn } from '../../platform/notifications/statement';
import { lockStorage, storageUsed } from './knowledge-storage';

type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
type DocumentRow = typeof knowledgeDocuments.$inferSelect;

/** A knowledge base as the service needs it: the API's fields plus the version its chunks are at. */
/** A document to queue: its text, or for a PDF its file (and empty text); `sizeBytes` of whichever it is. */
export type DocumentToAdd = {
  name: string;
  mediaType: KnowledgeMediaType;
  content: string;
  file: Buffer | null;
  sizeBytes: number;
};

export type StoredKnowledgeBase = KnowledgeBase & { organizationId: string; version: number };

// A knowledge base's figures, each from its documents (one index scan by knowledge base apiece).
const ofBase = sql`"knowledge_documents"."knowledge_base_id" = "knowledge_bases"."id"`;
const figures = {
  documentCount: sql<number>`(select count(*) from knowledge_documents where ${ofBase})`.mapWith(Number),
  chunkCount:
    sql<number>`(select coalesce(sum(chunk_count), 0) from knowledge_documents where ${ofBase})`.mapWith(
      Number,
    ),
  sizeBytes:
    sql<number>`(select coalesce(sum(size_bytes), 0) from knowledge_documents where ${ofBase})`.mapWith(
      Number,
    ),
};

function toKnowledgeBase(
  row: KnowledgeBaseRow,
  counts: { documentCount: number; chunkCount: number; sizeBytes: number },
): StoredKnowledgeBase {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    description: row.description,
    embeddingProvider: row.embeddingProvider,
    embeddingModel: row.embeddingModel,
    dimensions: row.dimensions,
    version: row.version,
    ...counts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The API's document: never its content (a list of documents stays small whatever they hold). */
const documentColumns = {
  id: knowledgeDocuments.id,
  knowledgeBaseId: knowledgeDocuments.knowledgeBaseId,
  name: knowledgeDocuments.name,
  mediaType: knowledgeDocuments.mediaType,
  sizeBytes: knowledgeDocuments.sizeBytes,
  status: knowledgeDocuments.status,
  error: knowledgeDocuments.error,
  chunkCount: knowledgeDocuments.chunkCount,
  createdAt: knowledgeDocuments.createdAt,
  updatedAt: knowledgeDocuments.updatedAt,
};
type DocumentFields = Pick<DocumentRow, keyof typeof documentColumns>;

const toKnowledgeDocument = (row: DocumentFields): KnowledgeDocument => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A chunk a search found, with its document's name. */
export type ChunkHit = {
  id: string;
  documentId: string;
  documentName: string;
  chunkIndex: number;
  text: string;
};

/** Inserts a queued document; the statement itself wakes the workers (sent when it commits). */
async function insertDocument(
  tx: Pick<Tx, 'insert'>,
  organizationId: string,
  knowledgeBaseId: string,
  document: DocumentToAdd,
): Promise<KnowledgeDocument> {
  const [row] = await tx
    .insert(knowledgeDocuments)
    .values({
      organizationId,
      knowledgeBaseId,
      name: document.name,
      mediaType: document.mediaType,
      content: document.content,
      file: document.file,
      sizeBytes: document.sizeBytes,
    })
    .returning({
      ...documentColumns,
      woke: wakeUpColumn(channels.knowledge, sql`"knowledge_documents"."id"::text`),
    });
  const { woke: _woke, ...added } = row;
  return toKnowledgeDocument(added);
}

// Every query is scoped by the organization id: another organization's knowledge base does not exist.
export function createKnowledgeRepository(db: Db) {
  const scoped = (organizationId: string, id: string) =>
    and(eq(knowledgeBases.organizationId, organizationId), eq(knowledgeBases.id, id));

  async function get(organizationId: string, id: string): Promise<StoredKnowledgeBase | undefined> {
    const [row] = await db
      .select({ base: knowledgeBases, ...figures })
      .from(knowledgeBases)
      .where(scoped(organizationId, id))
      .limit(1);
    return row && toKnowledgeBase(row.base, row);
  }

  return {
    /** Newest first, each with its figures. */
    async list(organizationId: string): Promise<StoredKnowledgeBase[]> {
      const rows = await db
        .select({ base: knowledgeBases, ...figures })
        .from(knowledgeBases)
        .where(eq(knowledgeBases.organizationId, organizationId))
        .orderBy(desc(knowledgeBases.createdAt));
      return rows.map((row) => toKnowledgeBase(row.base, row));
    },

    get,

    async create(
      organizationId: string,
      createdBy: string,
      input: Required<Pick<CreateKnowledgeBaseInput, 'name' | 'embeddingProvider' | 'embeddingModel'>> & {
        description?: string | null;
      },
    ): Promise<StoredKnowledgeBase> {
      const [row] = await db
        .insert(knowledgeBases)
        .values({
          organizationId,
          createdBy,
          name: input.name,
          description: input.description || null,
          embeddingProvider: input.embeddingProvider,
          embeddingModel: input.embeddingModel,
        })
        .returning();
      return toKnowledgeBase(row, { documentCount: 0, chunkCount: 0, sizeBytes: 0 });
    },

    async update(
      organizationId: string,
      id: string,
      patch: UpdateKnowledgeBaseInput,
    ): Promise<StoredKnowledgeBase | undefined> {
      const values = {
        name: patch.name,
        // An empty description is no description.
        description: patch.description === undefined ? undefined : patch.description || null,
      };
      if (nothingToSet(values)) return get(organizationId, id);
      const updated = await db
        .update(knowledgeBases)
        .set(values)
        .where(scoped(organizationId, id))
        .returning({ id: knowledgeBases.id });
      return updated.length > 0 ? get(organizationId, id) : undefined;
    },

    /** With its documents and chunks (the foreign keys cascade). */
    async remove(organizationId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(knowledgeBases)
        .where(scoped(organizationId, id))
        .returning({ id: knowledgeBases.id });
      return rows.length > 0;
    },

    /** The knowledge base's documents, newest first (undefined when it is not the organization's). */
    async documents(organizationId: string, knowledgeBaseId: string): Promise<KnowledgeDocument[]> {
      const rows = await db
        .select(documentColumns)
        .from(knowledgeDocuments)
        .where(
          and(
            eq(knowledgeDocuments.organizationId, organizationId),
            eq(knowledgeDocuments.knowledgeBaseId, knowledgeBaseId),
          ),
        )
        .orderBy(desc(knowledgeDocuments.createdAt));
      return rows.map(toKnowledgeDocument);
    },

    /** Bytes of the organization's knowledge storage in use (knowledge-storage.ts). */
    async storageUsed(organizationId: string): Promise<number> {
      return storageUsed(db, organizationId);
    },

    /**
     * Queues a document; the statement itself wakes the workers (a NOTIFY on channels.knowledge, sent
     * when it commits). The caller has checked that the knowledge base is the organization's. With a
     * quota (`maxStorageBytes`), under the organization's storage lock, a document that does not fit
     * beside the others is not added: the answer is then the bytes in use.
     */
    async addDocument(
      organizationId: string,
      knowledgeBaseId: string,
      document: DocumentToAdd,
      maxStorageBytes: number | null,
    ): Promise<{ added: KnowledgeDocument } | { refused: true; used: number }> {
      return db.transaction(async (tx) => {
        if (maxStorageBytes !== null) {
          await lockStorage(tx, organizationId);
          const used = await storageUsed(tx, organizationId);
          if (used + document.sizeBytes > maxStorageBytes) return { refused: true, used };
        }
        return { added: await insertDocument(tx, organizationId, knowledgeBaseId, document) };
      });
    },

    /**
     * Deletes a document with its chunks; a ready one's knowledge base moves to a new version (its
     * chunks changed), in the same transaction. False when there is no such document.
     */
    async removeDocument(organizationId: string, knowledgeBaseId: string, id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [removed] = await tx
          .delete(knowledgeDocuments)
          .where(
            and(
              eq(knowledgeDocuments.organizationId, organizationId),
              eq(knowledgeDocuments.knowledgeBaseId, knowledgeBaseId),
              eq(knowledgeDocuments.id, id),
            ),
          )
          .returning({ chunkCount: knowledgeDocuments.chunkCount });
        if (!removed) return false;
        if (removed.chunkCount > 0) {
          await tx
            .update(knowledgeBases)
            .set({ version: sql`${knowledgeBases.version} + 1` })
            .where(eq(knowledgeBases.id, knowledgeBaseId));
        }
        return true;
      });
    },

    /** Every chunk's id and embedding (float32 little-endian bytes), for a search index of the knowledge base. */
    async vectors(knowledgeBaseId: string): Promise<{ ids: string[]; embeddings: Buffer[] }> {
      const rows = await db
        .select({ id: knowledgeChunks.id, embedding: knowledgeChunks.embedding })
        .from(knowledgeChunks)
        .where(eq(knowledgeChunks.knowledgeBaseId, knowledgeBaseId));
      return { ids: rows.map((r) => r.id), embeddings: rows.map((r) => r.embedding) };
    },

    /** Its ready documents that have chunks: what an approximate index of it covers (ann-index.ts). */
    async readyDocuments(knowledgeBaseId: string): Promise<{ id: string; chunkCount: number }[]> {
      return db
        .select({ id: knowledgeDocuments.id, chunkCount: knowledgeDocuments.chunkCount })
        .from(knowledgeDocuments)
        .where(
          and(
            eq(knowledgeDocuments.knowledgeBaseId, knowledgeBaseId),
            eq(knowledgeDocuments.status, 'ready'),
            gt(knowledgeDocuments.chunkCount, 0),
          ),
        );
    },

    /**
     * The chunks of these documents (ids, document ids, embeddings), a document's chunks together and
     * in order: an approximate index adds them a few documents at a time.
     */
    async documentVectors(
      knowledgeBaseId: string,
      documentIds: string[],
    ): Promise<{ ids: string[]; documentIds: string[]; embeddings: Buffer[] }> {
      if (documentIds.length === 0) return { ids: [], documentIds: [], embeddings: [] };
      const rows = await db
        .select({
          id: knowledgeChunks.id,
          documentId: knowledgeChunks.documentId,
          embedding: knowledgeChunks.embedding,
        })
        .from(knowledgeChunks)
        .where(
          and(
            eq(knowledgeChunks.knowledgeBaseId, knowledgeBaseId),
            inArray(knowledgeChunks.documentId, documentIds),
          ),
        )
        .orderBy(knowledgeChunks.documentId, knowledgeChunks.chunkIndex);
      return {
        ids: rows.map((r) => r.id),
        documentIds: rows.map((r) => r.documentId),
        embeddings: rows.map((r) => r.embedding),
      };
    },

    /**
     * The chunks with these ids that are still in the knowledge base, with their document's name (and
     * with `embeddings`, their vectors, to rank an approximate search's candidates exactly).
     */
    async chunks(
      organizationId: string,
      knowledgeBaseId: string,
      ids: string[],
      options: { embeddings?: boolean } = {},
    ): Promise<(ChunkHit & { embedding?: Buffer })[]> {
      if (ids.length === 0) return [];
      return db
        .select({
          id: knowledgeChunks.id,
          documentId: knowledgeChunks.documentId,
          documentName: knowledgeDocuments.name,
          chunkIndex: knowledgeChunks.chunkIndex,
          text: knowledgeChunks.text,
          ...(options.embeddings ? { embedding: knowledgeChunks.embedding } : {}),
        })
        .from(knowledgeChunks)
        .innerJoin(knowledgeDocuments, eq(knowledgeDocuments.id, knowledgeChunks.documentId))
        .where(
          and(
            eq(knowledgeChunks.organizationId, organizationId),
            eq(knowledgeChunks.knowledgeBaseId, knowledgeBaseId),
            inArray(knowledgeChunks.id, ids),
          ),
        );
    },
  };
}
export type KnowledgeRepository = ReturnType<typeof createKnowledgeRepository>;
