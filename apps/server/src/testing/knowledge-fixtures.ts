import type { KnowledgeBase, KnowledgeDocument, KnowledgeSearchHit } from '@crewline/contracts';
import type { TestApp } from './test-app';

/*
 * Set-up and reads of knowledge bases through the API, for the knowledge suites. Each throws when the
 * API refuses, so a broken set-up fails where it happens.
 */

/** A document's body: text as `content`, or a PDF's bytes as `contentBase64`. */
export type DocumentBody = { name: string; mediaType?: string; content?: string; contentBase64?: string };

export async function createKnowledgeBase(
  t: TestApp,
  token: string,
  fields: Record<string, unknown> = {},
): Promise<KnowledgeBase> {
  const res = await t.request({
    method: 'POST',
    url: '/api/knowledge-bases',
    token,
    payload: { name: 'Handbook', ...fields },
  });
  if (res.statusCode !== 201)
    throw new Error(`POST /api/knowledge-bases answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

export async function addDocument(
  t: TestApp,
  token: string,
  knowledgeBaseId: string,
  document: DocumentBody,
): Promise<KnowledgeDocument> {
  const res = await t.request({
    method: 'POST',
    url: `/api/knowledge-bases/${knowledgeBaseId}/documents`,
    token,
    payload: { mediaType: 'text/plain', ...document },
  });
  if (res.statusCode !== 201) throw new Error(`POST documents answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

export async function listDocuments(t: TestApp, token: string, knowledgeBaseId: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/knowledge-bases/${knowledgeBaseId}/documents`,
    token,
  });
  if (res.statusCode !== 200) throw new Error(`GET documents answered ${res.statusCode}: ${res.body}`);
  return res.json() as KnowledgeDocument[];
}

/** Polls the knowledge base's documents until this one is ready or failed, and returns it. */
export async function waitForDocument(
  t: TestApp,
  token: string,
  knowledgeBaseId: string,
  documentId: string,
  timeoutMs = 15_000,
): Promise<KnowledgeDocument> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const document = (await listDocuments(t, token, knowledgeBaseId)).find((d) => d.id === documentId);
    if (document && (document.status === 'ready' || document.status === 'failed')) return document;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`document ${documentId} was not ingested`);
}

/** Adds a document and waits until it is ready or failed. */
export async function ingest(
  t: TestApp,
  token: string,
  knowledgeBaseId: string,
  document: DocumentBody,
): Promise<KnowledgeDocument> {
  const added = await addDocument(t, token, knowledgeBaseId, document);
  return waitForDocument(t, token, knowledgeBaseId, added.id);
}

export async function search(
  t: TestApp,
  token: string,
  knowledgeBaseId: string,
  query: string,
  topK = 5,
): Promise<KnowledgeSearchHit[]> {
  const res = await t.request({
    method: 'POST',
    url: `/api/knowledge-bases/${knowledgeBaseId}/search`,
    token,
    payload: { query, topK },
  });
  if (res.statusCode !== 200) throw new Error(`search answered ${res.statusCode}: ${res.body}`);
  return res.json().hits;
}

/** The rows of a knowledge base's chunks in the database (what a search could ever find). */
export async function storedChunks(t: TestApp, knowledgeBaseId: string) {
  const { rows } = await t.database.pool.query<{ document_id: string; n: number }>(
    `SELECT document_id, count(*)::int AS n FROM knowledge_chunks WHERE knowledge_base_id = $1 GROUP BY document_id`,
    [knowledgeBaseId],
  );
  return Object.fromEntries(rows.map((r) => [r.document_id, r.n]));
}
