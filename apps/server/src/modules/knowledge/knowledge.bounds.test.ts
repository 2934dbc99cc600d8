import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_LIMITS, type AuthResponse, type SubscriptionStatusResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { configureModel } from '../../testing/app-fixtures';
import { expandingPdf, pdfWithText } from '../../testing/hand-made-pdf';
import {
  addDocument,
  createKnowledgeBase,
  ingest,
  listDocuments,
  storedChunks,
  waitForDocument,
} from '../../testing/knowledge-fixtures';
import { extractionTimedOut } from './extract-in-worker';
import { TEXT_TOO_LARGE } from './text-budget';
import { uploadOverQuota } from './knowledge-storage';

/*
 * A document is bounded however it is sent: its text (20 MiB), a PDF's pages and reading time, and
 * the organization's knowledge storage (its plan's quota), checked on upload and again once its text
 * is read.
 */

const GiB = 1024 ** 3;
const STARTER_QUOTA = PLAN_LIMITS.starter.knowledgeStorageBytes!;
const extraction = { pdfMaxPages: 3, timeoutMs: 120_000, memoryMb: 512 };

let fake: FakeLlmServer;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, config: { knowledgeExtraction: extraction } });
});
beforeEach(() => fake.reset());
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A new organization on a Starter trial (1 GiB of knowledge storage), with a model and a knowledge base. */
async function starterOrganization(app: TestApp) {
  const owner = await app.signup({ plan: 'starter' });
  await configureModel(app, owner.token, fake.url);
  const kb = await createKnowledgeBase(app, owner.token);
  return { owner, kb };
}

/** Stores a ready document of `sizeBytes` (and no content) straight in the database: storage in use. */
async function fill(app: TestApp, owner: AuthResponse, knowledgeBaseId: string, sizeBytes: number) {
  await app.database.pool.query(
    `INSERT INTO knowledge_documents (knowledge_base_id, organization_id, name, media_type, size_bytes, content, status)
     VALUES ($1, $2, 'filler.txt', 'text/plain', $3, '', 'ready')`,
    [knowledgeBaseId, owner.organization.id, sizeBytes],
  );
}

async function subscription(app: TestApp, owner: AuthResponse): Promise<SubscriptionStatusResponse> {
  const res = await app.request({ method: 'GET', url: '/api/subscription-status', token: owner.token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const post = (app: TestApp, token: string, knowledgeBaseId: string, content: string) =>
  app.request({
    method: 'POST',
    url: `/api/knowledge-bases/${knowledgeBaseId}/documents`,
    token,
    payload: { name: 'notes.txt', mediaType: 'text/plain', content },
  });

const textBytesOf = async (app: TestApp, documentId: string) =>
  (
    await app.database.pool.query<{ text_bytes: number }>(
      'SELECT text_bytes FROM knowledge_documents WHERE id = $1',
      [documentId],
    )
  ).rows[0].text_bytes;

describe('reading a document', () => {
  it('stops a small PDF whose text expands past 20 MiB, failing it with the reason and storing nothing', async () => {
    const { owner, kb } = await starterOrganization(t);
    const bomb = expandingPdf(); // some 40 KB that draws 22.4 million characters
    const added = await addDocument(t, owner.token, kb.id, {
      name: 'bomb.pdf',
      mediaType: 'application/pdf',
      contentBase64: bomb.toString('base64'),
    });
    const done = await waitForDocument(t, owner.token, kb.id, added.id, 90_000);
    expect(done).toMatchObject({
      status: 'failed',
      error: TEXT_TOO_LARGE,
      chunkCount: 0,
      sizeBytes: bomb.length,
    });
    expect(done.error).toBe('The document’s text is larger than 20 MiB; split it into smaller documents.');
    expect(await storedChunks(t, kb.id)).toEqual({});
    expect(await textBytesOf(t, added.id)).toBe(0);
    expect(fake.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(0);
    // The upload still counts toward the organization's storage, and nothing more.
    expect((await subscription(t, owner)).usage.knowledgeStorageBytes).toBe(bomb.length);
  }, 120_000);

  it('fails a PDF with more pages than KNOWLEDGE_PDF_MAX_PAGES, naming the limit, and reads one at the limit', async () => {
    const { owner, kb } = await starterOrganization(t);
    const pages = (n: number) => Array.from({ length: n }, (_, i) => [`Chapter ${i + 1} of the manual.`]);
    const send = (name: string, n: number) =>
      ingest(t, owner.token, kb.id, {
        name,
        mediaType: 'application/pdf',
        contentBase64: pdfWithText(pages(n)).toString('base64'),
      });
    expect(await send('four.pdf', 4)).toMatchObject({
      status: 'failed',
      error: 'The PDF has more than 3 pages; split it into smaller documents.',
      chunkCount: 0,
    });
    expect(await send('three.pdf', 3)).toMatchObject({ status: 'ready', error: null, chunkCount: 1 });
  });
});

describe('the reading time limit', () => {
  let slow: TestApp;
  beforeAll(async () => {
    // A millisecond: no reading thread has even started by then, so the outcome does not hang on timing.
    slow = await createTestApp({
      worker: true,
      config: { knowledgeExtraction: { ...extraction, timeoutMs: 1 } },
    });
  });
  afterAll(async () => slow?.close());

  it('fails a document whose reading takes longer, naming the limit, with no chunks', async () => {
    const { owner, kb } = await starterOrganization(slow);
    const done = await ingest(slow, owner.token, kb.id, {
      name: 'slow.pdf',
      mediaType: 'application/pdf',
      contentBase64: pdfWithText([['Read in time?']]).toString('base64'),
    });
    expect(done).toMatchObject({ status: 'failed', error: extractionTimedOut(1), chunkCount: 0 });
    expect(done.error).toBe(
      'Reading the document took longer than 0.001 seconds; split it into smaller documents.',
    );
    expect(await storedChunks(slow, kb.id)).toEqual({});
  });
});

describe('knowledge storage', () => {
  let api: TestApp;
  beforeAll(async () => {
    // No worker: what uploads store stays as they stored it.
    api = await createTestApp();
  });
  afterAll(async () => api?.close());

  it('answers 402 plan_limit to an upload that does not fit, storing nothing, and takes one that does', async () => {
    const { owner, kb } = await starterOrganization(api);
    await fill(api, owner, kb.id, STARTER_QUOTA - 10);
    const refused = await post(api, owner.token, kb.id, 'eleven byte');
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      message: uploadOverQuota('starter', STARTER_QUOTA, STARTER_QUOTA - 10),
      code: 'plan_limit',
      limit: 'knowledge_storage',
      plan: 'starter',
    });
    expect(refused.json().message).toBe(
      'Your Starter plan allows 1 GiB of knowledge storage and 1 GiB is in use: this document does not fit. ' +
        'Delete documents or upgrade your plan to add more.',
    );
    expect((await listDocuments(api, owner.token, kb.id)).map((d) => d.name)).toEqual(['filler.txt']);

    expect((await post(api, owner.token, kb.id, 'ten bytes!')).statusCode).toBe(201);
    expect((await subscription(api, owner)).usage.knowledgeStorageBytes).toBe(STARTER_QUOTA);
  });

  it('never exceeds the quota under concurrent uploads: exactly the documents that fit are added', async () => {
    const { owner, kb } = await starterOrganization(api);
    await fill(api, owner, kb.id, STARTER_QUOTA - 500);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(api, owner.token, kb.id, `${i}`.padEnd(100, '.'))),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([
      201, 201, 201, 201, 201, 402, 402, 402, 402, 402,
    ]);
    expect(await listDocuments(api, owner.token, kb.id)).toHaveLength(6);
    expect((await subscription(api, owner)).usage.knowledgeStorageBytes).toBe(STARTER_QUOTA);
  });

  it('shows the plan’s quota and the use in the billing figures', async () => {
    const { owner, kb } = await starterOrganization(api);
    expect(await subscription(api, owner)).toMatchObject({
      usage: { knowledgeStorageBytes: 0 },
      limits: { knowledgeStorageBytes: GiB },
    });
    await addDocument(api, owner.token, kb.id, { name: 'a.txt', content: 'héllo' });
    expect((await subscription(api, owner)).usage.knowledgeStorageBytes).toBe(6);
    expect(PLAN_LIMITS).toMatchObject({
      starter: { knowledgeStorageBytes: GiB },
      professional: { knowledgeStorageBytes: 10 * GiB },
      enterprise: { knowledgeStorageBytes: null },
    });
  });
});

describe('knowledge storage once the text is read', () => {
  it('counts a ready document as the larger of its upload and its text', async () => {
    const { owner, kb } = await starterOrganization(t);
    const pdf = expandingPdf({ lines: 10, width: 200, draws: 5 });
    const done = await ingest(t, owner.token, kb.id, {
      name: 'dense.pdf',
      mediaType: 'application/pdf',
      contentBase64: pdf.toString('base64'),
    });
    expect(done.status).toBe('ready');
    const text = await textBytesOf(t, done.id);
    expect(text).toBeGreaterThan(pdf.length);
    expect((await subscription(t, owner)).usage.knowledgeStorageBytes).toBe(text);
  });

  it('fails a document whose text takes the organization past its quota, before embedding it', async () => {
    const { owner, kb } = await starterOrganization(t);
    await fill(t, owner, kb.id, STARTER_QUOTA - 5_000);
    const pdf = expandingPdf({ lines: 10, width: 200, draws: 5 }); // under 5 KB; some 10 KB of text
    expect(pdf.length).toBeLessThan(5_000);
    const done = await ingest(t, owner.token, kb.id, {
      name: 'dense.pdf',
      mediaType: 'application/pdf',
      contentBase64: pdf.toString('base64'),
    });
    expect(done).toMatchObject({ status: 'failed', chunkCount: 0 });
    expect(done.error).toMatch(
      /^The document’s text \(9\.\d KiB\) does not fit in the 1 GiB of knowledge storage your Starter plan allows\. Delete documents or upgrade your plan, then add it again\.$/,
    );
    expect(fake.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(0);
    expect((await subscription(t, owner)).usage.knowledgeStorageBytes).toBe(
      STARTER_QUOTA - 5_000 + pdf.length,
    );
  });
});
