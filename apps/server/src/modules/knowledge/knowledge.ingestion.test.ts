import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import { configureModel } from '../../testing/app-fixtures';
import { corruptPdf, pdfWithText, pdfWithoutText } from '../../testing/hand-made-pdf';
import { createIngestionRepository } from './ingestion.repository';
import { startKnowledgeWorker } from './knowledge-worker';
import {
  addDocument,
  createKnowledgeBase,
  ingest,
  listDocuments,
  search,
  storedChunks,
  waitForDocument,
} from '../../testing/knowledge-fixtures';

let t: TestApp, fake: FakeLlmServer, ada: AuthResponse;
beforeAll(async () => ({ t, fake, ada } = await startFakeModelSuite()));
beforeEach(() => fake.reset());
afterAll(() => closeInOrder(t, fake));

const paragraph = (words: string) => `${words}. `.repeat(40).trim();

describe('ingestion', () => {
  it('takes each kind of document to ready, with its chunks stored', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const documents = [
      { name: 'notes.txt', mediaType: 'text/plain', content: 'Plain notes about the office plants.' },
      {
        name: 'guide.md',
        mediaType: 'text/markdown',
        content: `# Guide\n\n${paragraph('The kettle is in the kitchen')}\n\n## More\n\n${paragraph('Water the ficus on Mondays')}`,
      },
      {
        name: 'page.html',
        mediaType: 'text/html',
        content:
          '<html><head><style>p{}</style></head><body><h1>Parking</h1><p>Bikes go in the yard.</p></body></html>',
      },
      { name: 'rooms.csv', mediaType: 'text/csv', content: 'room,floor\nAtlas,2\nBoreal,3\n' },
      { name: 'Pasted text', mediaType: 'text/plain', content: 'The printer code is 4242.' },
    ];
    const ingested = [];
    for (const document of documents) ingested.push(await ingest(t, ada.token, kb.id, document));
    expect(ingested.map((d) => [d.name, d.status, d.error])).toEqual(
      documents.map((d) => [d.name, 'ready', null]),
    );
    const counts = Object.fromEntries(ingested.map((d) => [d.name, d.chunkCount]));
    // The Markdown guide is over 2,000 characters: several chunks; the others fit in one.
    expect(counts['guide.md']).toBeGreaterThanOrEqual(3);
    expect({ ...counts, 'guide.md': 0 }).toEqual({
      'notes.txt': 1,
      'guide.md': 0,
      'page.html': 1,
      'rooms.csv': 1,
      'Pasted text': 1,
    });
    const stored = await storedChunks(t, kb.id);
    expect(ingested.map((d) => stored[d.id])).toEqual(ingested.map((d) => d.chunkCount));
    // The HTML's text without its markup, the CSV's values after their headers.
    const html = await search(t, ada.token, kb.id, 'bikes parking yard', 1);
    expect(html[0]).toMatchObject({ documentName: 'page.html', chunkIndex: 0 });
    expect(html[0].text).not.toContain('<');
    const csv = await search(t, ada.token, kb.id, 'Boreal room floor', 1);
    expect(csv[0].documentName).toBe('rooms.csv');
    // Batched: one embeddings request per batch of chunks, not one per chunk.
    const embeddingRequests = fake.requests.filter((r) => r.path === '/v1/embeddings');
    expect(embeddingRequests.length).toBeLessThan(ingested.reduce((n, d) => n + d.chunkCount, 0) + 2);
  });

  it('ranks the right document first for each of five questions on a small corpus', async () => {
    const kb = await createKnowledgeBase(t, ada.token, { name: 'Company handbook' });
    const corpus = {
      'holidays.md':
        'Employees receive twenty five paid holiday days each year. Unused holiday days carry over until March.',
      'expenses.md':
        'Submit expense receipts within thirty days. Travel expenses need approval from your manager.',
      'security.md':
        'Lock your laptop screen when you leave your desk. Report phishing emails to the security team.',
      'onboarding.md':
        'New hires get a laptop and a badge on their first day. Onboarding lasts two weeks with a buddy.',
      'parking.md':
        'The car park opens at seven. Electric cars may charge at the parking bays near the entrance.',
    };
    for (const [name, content] of Object.entries(corpus)) {
      expect((await ingest(t, ada.token, kb.id, { name, mediaType: 'text/markdown', content })).status).toBe(
        'ready',
      );
    }
    const questions = {
      'How many holiday days do employees get?': 'holidays.md',
      'Who approves my travel expenses and receipts?': 'expenses.md',
      'What do I do with phishing emails?': 'security.md',
      'What do new hires get on their first day?': 'onboarding.md',
      'Where can I charge my electric car in the car park?': 'parking.md',
    };
    for (const [question, expected] of Object.entries(questions)) {
      const hits = await search(t, ada.token, kb.id, question, 3);
      expect({ question, first: hits[0]?.documentName }).toEqual({ question, first: expected });
      expect(hits).toHaveLength(3);
      // Best first, scores rounded to 4 decimals, each with its chunk's text.
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
      for (const hit of hits) expect(Number(hit.score.toFixed(4))).toBe(hit.score);
      expect(hits[0].text).toBe(corpus[expected as keyof typeof corpus]);
    }
  });

  it('answers no hits from a knowledge base without ready documents, without calling the model', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    expect(await search(t, ada.token, kb.id, 'anything')).toEqual([]);
    expect(fake.requests.filter((r) => r.path === '/v1/embeddings')).toEqual([]);
  });

  it('fails a document whose text extraction leaves nothing, with the reason and no chunks', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const doc = await ingest(t, ada.token, kb.id, {
      name: 'empty.html',
      mediaType: 'text/html',
      content: '<html><body><script>var a = 1;</script> <img src="x.png"></body></html>',
    });
    expect(doc).toMatchObject({ status: 'failed', error: 'The document has no text', chunkCount: 0 });
    expect(await storedChunks(t, kb.id)).toEqual({});
  });

  it('reads a PDF’s pages on the worker, so a search finds its text', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const pdf = pdfWithText([
      ['Travel policy', 'Train tickets are booked through the travel desk.'],
      ['Hotel nights abroad are paid up to 180 euros.'],
    ]);
    const doc = await ingest(t, ada.token, kb.id, {
      name: 'travel.pdf',
      mediaType: 'application/pdf',
      contentBase64: pdf.toString('base64'),
    });
    expect(doc).toMatchObject({ status: 'ready', error: null, chunkCount: 1, sizeBytes: pdf.length });
    const [hit] = await search(t, ada.token, kb.id, 'how are train tickets booked');
    expect(hit).toMatchObject({ documentName: 'travel.pdf', chunkIndex: 0 });
    // The pages' text, the pages apart by a blank line.
    expect(hit.text).toBe(
      'Travel policy\nTrain tickets are booked through the travel desk.\n\n' +
        'Hotel nights abroad are paid up to 180 euros.',
    );
  });

  it('fails a PDF without text and one that cannot be read, with the reason and no chunks', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const scanned = await ingest(t, ada.token, kb.id, {
      name: 'scan.pdf',
      mediaType: 'application/pdf',
      contentBase64: pdfWithoutText().toString('base64'),
    });
    expect(scanned).toMatchObject({
      status: 'failed',
      error: 'The PDF has no text to index (a scanned document needs text recognition first).',
      chunkCount: 0,
    });
    const broken = await ingest(t, ada.token, kb.id, {
      name: 'broken.pdf',
      mediaType: 'application/pdf',
      contentBase64: corruptPdf().toString('base64'),
    });
    expect(broken).toMatchObject({ status: 'failed', error: 'The PDF could not be read.', chunkCount: 0 });
    expect(await storedChunks(t, kb.id)).toEqual({});
    expect(fake.requests.filter((r) => r.path === '/v1/embeddings')).toEqual([]);
  });

  it('fails a document whose vectors have another length than the knowledge base holds', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const first = await ingest(t, ada.token, kb.id, {
      name: 'first.txt',
      content: 'The first document sets it.',
    });
    expect(first.status).toBe('ready');
    fake.embeddingDimensionsOverride(256);
    const second = await ingest(t, ada.token, kb.id, {
      name: 'second.txt',
      content: 'Another model answers now.',
    });
    expect(second).toMatchObject({
      status: 'failed',
      error: 'The embedding model answered vectors of 256 dimensions; this knowledge base holds 1536.',
      chunkCount: 0,
    });
    expect(await storedChunks(t, kb.id)).toEqual({ [first.id]: 1 });
    // A search says so too, rather than comparing vectors of different lengths.
    const res = await t.request({
      method: 'POST',
      url: `/api/knowledge-bases/${kb.id}/search`,
      token: ada.token,
      payload: { query: 'first' },
    });
    expect([res.statusCode, res.json().message]).toEqual([
      502,
      'The embedding model answered vectors of 256 dimensions; this knowledge base holds 1536.',
    ]);
    fake.embeddingDimensionsOverride(null);
    const kbAfter = (
      await t.request({ method: 'GET', url: `/api/knowledge-bases/${kb.id}`, token: ada.token })
    ).json();
    expect(kbAfter).toMatchObject({ dimensions: 1536, documentCount: 2, chunkCount: 1 });
  });

  it('fails a document with the provider’s reason once the gateway’s retries are spent', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    fake.failNext(500, { error: { message: 'The embeddings service is overloaded' } }, 3, {
      headers: { 'retry-after-ms': '0' },
    });
    const doc = await ingest(t, ada.token, kb.id, {
      name: 'unlucky.txt',
      content: 'Nobody embeds me today.',
    });
    expect(doc.status).toBe('failed');
    expect(doc.error).toMatch(/^The embedding model failed: .*overloaded/);
    expect(fake.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(3);
    expect(await storedChunks(t, kb.id)).toEqual({});
  });

  it('fails a document whose organization has no connection for the provider, saying where to set one', async () => {
    const bob = await t.signup();
    const kb = await createKnowledgeBase(t, bob.token);
    const doc = await ingest(t, bob.token, kb.id, { name: 'a.txt', content: 'No model is connected.' });
    expect(doc.status).toBe('failed');
    expect(doc.error).toEqual(expect.stringMatching(/OpenAI/));
  });

  it('deletes a document with its chunks, so searches no longer find it', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const keep = await ingest(t, ada.token, kb.id, {
      name: 'keep.txt',
      content: 'Bananas are yellow fruit.',
    });
    const drop = await ingest(t, ada.token, kb.id, {
      name: 'drop.txt',
      content: 'Submarines dive under the ocean.',
    });
    expect((await search(t, ada.token, kb.id, 'submarines ocean', 1))[0].documentName).toBe('drop.txt');
    const res = await t.request({
      method: 'DELETE',
      url: `/api/knowledge-bases/${kb.id}/documents/${drop.id}`,
      token: ada.token,
    });
    expect(res.statusCode).toBe(204);
    expect(await storedChunks(t, kb.id)).toEqual({ [keep.id]: 1 });
    const hits = await search(t, ada.token, kb.id, 'submarines ocean');
    expect(hits.map((h) => h.documentName)).toEqual(['keep.txt']);
    expect((await listDocuments(t, ada.token, kb.id)).map((d) => d.name)).toEqual(['keep.txt']);
    const again = await t.request({
      method: 'DELETE',
      url: `/api/knowledge-bases/${kb.id}/documents/${drop.id}`,
      token: ada.token,
    });
    expect([again.statusCode, again.json().message]).toEqual([404, 'Document not found']);
  });
});

describe('a worker that dies mid-ingestion', () => {
  let solo: TestApp;
  beforeAll(async () => {
    // No worker of its own: the test plays the worker that dies, then starts one that takes over.
    solo = await createTestApp();
  });
  afterAll(() => solo?.close());

  it('leaves the document to another worker once its lease lapses, and not before', async () => {
    const who = await solo.signup();
    await configureModel(solo, who.token, fake.url);
    const kb = await createKnowledgeBase(solo, who.token);
    const doc = await addDocument(solo, who.token, kb.id, {
      name: 'orphan.txt',
      content: 'Taken over after a crash.',
    });
    const queue = createIngestionRepository(solo.db);
    // The worker that dies: it claims the document (a minute's lease) and is never heard of again.
    const claimed = await queue.claimNext(60_000);
    expect(claimed).toMatchObject({ id: doc.id, attempt: 1 });
    const worker = startKnowledgeWorker({ ingestion: solo.services.ingestion, pollMs: 50 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await listDocuments(solo, who.token, kb.id))[0]).toMatchObject({ status: 'processing' });
      await solo.database.pool.query(
        `UPDATE knowledge_documents SET lease_expires_at = now() - interval '1 second' WHERE id = $1`,
        [doc.id],
      );
      const done = await waitForDocument(solo, who.token, kb.id, doc.id);
      expect(done).toMatchObject({ status: 'ready', chunkCount: 1 });
      // The dead attempt can no longer write: its failure changes nothing.
      expect(await queue.fail(doc.id, 1, 'too late')).toBe(false);
      expect((await listDocuments(solo, who.token, kb.id))[0]).toMatchObject({
        status: 'ready',
        error: null,
      });
    } finally {
      await worker.stop();
    }
  });
});
