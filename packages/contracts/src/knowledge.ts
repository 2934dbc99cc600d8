import { z } from 'zod';

/*
 * Knowledge bases: an organization's documents, cut into chunks with an embedding each, searched by
 * meaning (modules/knowledge). A document is ingested by the workers (queued → processing → ready or
 * failed, with the reason); a search embeds the query with the knowledge base's model and answers the
 * closest chunks with their cosine similarity.
 *
 *   GET    /api/knowledge-bases                        list (with each one's counts and size)
 *   POST   /api/knowledge-bases                        create → 201
 *   GET    /api/knowledge-bases/:id                    one
 *   PUT    /api/knowledge-bases/:id                    rename, describe
 *   DELETE /api/knowledge-bases/:id                    with its documents and chunks → 204
 *   GET    /api/knowledge-bases/:id/documents          its documents, newest first
 *   POST   /api/knowledge-bases/:id/documents          add one (queued) → 201
 *   DELETE /api/knowledge-bases/:id/documents/:docId   with its chunks → 204
 *   POST   /api/knowledge-bases/:id/search             the closest chunks to a query
 */

/** The largest document accepted: the bytes of its text as UTF-8, or of its file (a PDF). */
export const KNOWLEDGE_MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
/** The embedding model a knowledge base uses unless told otherwise, and its vectors' length. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
export const DEFAULT_EMBEDDING_DIMENSIONS = 1536;
/** How many chunks a search answers at most. */
export const KNOWLEDGE_MAX_TOP_K = 20;

/** Where embeddings come from: the organization's connection of that provider (Anthropic has none). */
export const embeddingProviderValues = ['openai', 'local', 'custom'] as const;
export const embeddingProviderSchema = z.enum(embeddingProviderValues);
export type EmbeddingProvider = z.infer<typeof embeddingProviderSchema>;

/**
 * The kinds of document a knowledge base takes. The text types are sent as their text (`content`); a
 * PDF as its file's bytes, base64 (`contentBase64`), its text read by the workers.
 */
export const knowledgeTextMediaTypeValues = ['text/plain', 'text/markdown', 'text/html', 'text/csv'] as const;
export type KnowledgeTextMediaType = (typeof knowledgeTextMediaTypeValues)[number];
export const knowledgeMediaTypeValues = [...knowledgeTextMediaTypeValues, 'application/pdf'] as const;
export const knowledgeMediaTypeSchema = z.enum(knowledgeMediaTypeValues, {
  message: 'Upload a text, Markdown, HTML, CSV or PDF file',
});
export type KnowledgeMediaType = z.infer<typeof knowledgeMediaTypeSchema>;
/** The media types sent as the file's bytes rather than its text. */
export const isBinaryKnowledgeMediaType = (mediaType: KnowledgeMediaType): mediaType is 'application/pdf' =>
  mediaType === 'application/pdf';

export const knowledgeDocumentStatusValues = ['queued', 'processing', 'ready', 'failed'] as const;
export const knowledgeDocumentStatusSchema = z.enum(knowledgeDocumentStatusValues);
export type KnowledgeDocumentStatus = z.infer<typeof knowledgeDocumentStatusSchema>;

export const knowledgeBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  embeddingProvider: embeddingProviderSchema,
  embeddingModel: z.string(),
  /** The length of its vectors: set by the first document embedded, then every embedding must match it. */
  dimensions: z.number().int().nullable(),
  documentCount: z.number().int(),
  chunkCount: z.number().int(),
  /** The bytes of its documents' text (of the file, for a PDF). */
  sizeBytes: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBaseSchema>;

const name = z
  .string()
  .trim()
  .min(1, { message: 'Name is required' })
  .max(100, { message: 'Name must be at most 100 characters' });
const description = z
  .string()
  .trim()
  .max(500, { message: 'Description must be at most 500 characters' })
  .nullish();

export const createKnowledgeBaseSchema = z.object({
  name,
  description,
  embeddingProvider: embeddingProviderSchema.default('openai'),
  embeddingModel: z.string().trim().min(1).max(200).default(DEFAULT_EMBEDDING_MODEL),
});
export type CreateKnowledgeBaseInput = z.input<typeof createKnowledgeBaseSchema>;

export const updateKnowledgeBaseSchema = z.object({ name: name.optional(), description });
export type UpdateKnowledgeBaseInput = z.infer<typeof updateKnowledgeBaseSchema>;

export const knowledgeDocumentSchema = z.object({
  id: z.string(),
  knowledgeBaseId: z.string(),
  name: z.string(),
  mediaType: knowledgeMediaTypeSchema,
  sizeBytes: z.number().int(),
  status: knowledgeDocumentStatusSchema,
  /** Why it failed, for the user (a failed document keeps no chunks). */
  error: z.string().nullable(),
  chunkCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KnowledgeDocument = z.infer<typeof knowledgeDocumentSchema>;

/** The bytes of a text as UTF-8 (what the size limit counts), in the browser and the server alike. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: one character of four bytes.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The bytes a base64 text stands for, or null when it is not base64 (the standard alphabet, padded to
 * a multiple of 4; no line breaks). Counted from its length, without decoding it.
 */
export function base64DecodedBytes(base64: string): number | null {
  if (base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return null;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

const TOO_LARGE = 'The document is larger than 20 MiB';

/** A document's text (a text file as read, or pasted): not blank, at most 20 MiB as UTF-8. */
export const knowledgeDocumentTextSchema = z
  .string()
  .refine((text) => text.trim().length > 0, { message: 'The document is empty' })
  .refine((text) => utf8Bytes(text) <= KNOWLEDGE_MAX_DOCUMENT_BYTES, { message: TOO_LARGE });

/** A file's bytes as base64: valid, not empty, at most 20 MiB once decoded. */
export const knowledgeDocumentBase64Schema = z.string().superRefine((base64, ctx) => {
  const bytes = base64DecodedBytes(base64);
  if (bytes === null) ctx.addIssue({ code: 'custom', message: 'contentBase64 is not valid base64' });
  else if (bytes === 0) ctx.addIssue({ code: 'custom', message: 'The document is empty' });
  else if (bytes > KNOWLEDGE_MAX_DOCUMENT_BYTES) ctx.addIssue({ code: 'custom', message: TOO_LARGE });
});

/** A document's fields, each checked on its own (the paste form picks from these). */
export const addKnowledgeDocumentFieldsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: 'Name is required' })
    .max(200, { message: 'Name must be at most 200 characters' }),
  mediaType: knowledgeMediaTypeSchema,
  /** The text of a text, Markdown, HTML or CSV file, or pasted text. */
  content: knowledgeDocumentTextSchema.optional(),
  /** The bytes of a PDF file, base64. */
  contentBase64: knowledgeDocumentBase64Schema.optional(),
});

/**
 * A file read by the browser, or pasted text (text/plain): a text type with `content`, a PDF with
 * `contentBase64`, never the other way round nor both.
 */
export const addKnowledgeDocumentSchema = addKnowledgeDocumentFieldsSchema.superRefine((doc, ctx) => {
  if (isBinaryKnowledgeMediaType(doc.mediaType)) {
    if (doc.content !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: "A PDF is sent as contentBase64 (the file's bytes, base64), not as content",
      });
    else if (doc.contentBase64 === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['contentBase64'],
        message: "A PDF needs contentBase64: the file's bytes, base64",
      });
  } else if (doc.contentBase64 !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['contentBase64'],
      message: 'contentBase64 is only for PDF files: send the text of this document as content',
    });
  else if (doc.content === undefined)
    ctx.addIssue({ code: 'custom', path: ['content'], message: "The document's text (content) is required" });
});
export type AddKnowledgeDocumentInput = z.infer<typeof addKnowledgeDocumentSchema>;

export const knowledgeSearchSchema = z.object({
  query: z.string().trim().min(1, { message: 'Enter something to search for' }).max(2000),
  topK: z.number().int().min(1).max(KNOWLEDGE_MAX_TOP_K).default(5),
});
export type KnowledgeSearchInput = z.input<typeof knowledgeSearchSchema>;

export const knowledgeSearchHitSchema = z.object({
  documentId: z.string(),
  documentName: z.string(),
  /** Where the chunk sits in its document, from 0. */
  chunkIndex: z.number().int(),
  text: z.string(),
  /** Cosine similarity, -1 to 1 (higher is closer). */
  score: z.number(),
});
export type KnowledgeSearchHit = z.infer<typeof knowledgeSearchHitSchema>;

export const knowledgeSearchResultSchema = z.object({ hits: z.array(knowledgeSearchHitSchema) });
export type KnowledgeSearchResult = z.infer<typeof knowledgeSearchResultSchema>;
