import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthResponse, RealtimeEvent } from '@crewline/contracts';
import { KNOWLEDGE_MAX_DOCUMENT_BYTES } from '@crewline/contracts';
import type { TestApp } from '../../testing/test-app';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import { pdfWithText } from '../../testing/hand-made-pdf';
import {
  addDocument,
  createKnowledgeBase,
  ingest,
  listDocuments,
  search,
  storedChunks,
} from '../../testing/knowledge-fixtures';

let t: TestApp, fake: FakeLlmServer, ada: AuthResponse, eve: AuthResponse;
beforeAll(async () => ({ t, fake, ada, bob: eve } = await startFakeModelSuite()));
afterAll(() => closeInOrder(t, fake));

describe('knowledge bases', () => {
  it('are created with the default embedding model, listed newest first with their figures, renamed and deleted', async () => {
    const created = await createKnowledgeBase(t, ada.token, {
      name: '  Policies  ',
      description: 'HR rules',
    });
    expect(created).toMatchObject({
      name: 'Policies',
      description: 'HR rules',
      embeddingProvider: 'openai',
      embeddingModel: 'text-embedding-3-small',
      dimensions: null,
      documentCount: 0,
      chunkCount: 0,
      sizeBytes: 0,
    });
    const second = await createKnowledgeBase(t, ada.token, { name: 'Second', embeddingModel: 'nomic-embed' });
    await ingest(t, ada.token, created.id, { name: 'leave.txt', content: 'Holidays are 25 days a year. ✓' });

    const list = (await t.request({ method: 'GET', url: '/api/knowledge-bases', token: ada.token })).json();
    expect(list.map((kb: { name: string }) => kb.name)).toEqual(['Second', 'Policies']);
    expect(list[1]).toMatchObject({
      documentCount: 1,
      chunkCount: 1,
      sizeBytes: Buffer.byteLength('Holidays are 25 days a year. ✓'),
      dimensions: 1536,
    });
    expect(list[0]).toMatchObject({ embeddingModel: 'nomic-embed', documentCount: 0 });

    const renamed = await t.request({
      method: 'PUT',
      url: `/api/knowledge-bases/${created.id}`,
      token: ada.token,
      payload: { name: 'HR policies', description: '' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'HR policies', description: null, documentCount: 1 });
    const got = await t.request({
      method: 'GET',
      url: `/api/knowledge-bases/${created.id}`,
      token: ada.token,
    });
    expect(got.json().name).toBe('HR policies');

    const removed = await t.request({
      method: 'DELETE',
      url: `/api/knowledge-bases/${created.id}`,
      token: ada.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await storedChunks(t, created.id)).toEqual({});
    const after = await t.request({
      method: 'GET',
      url: `/api/knowledge-bases/${created.id}`,
      token: ada.token,
    });
    expect([after.statusCode, after.json().message]).toEqual([404, 'Knowledge base not found']);
    await t.request({ method: 'DELETE', url: `/api/knowledge-bases/${second.id}`, token: ada.token });
  });

  it('refuse a knowledge base without a name, with an unknown provider or a name too long, with the reason', async () => {
    for (const [payload, message] of [
      [{ name: '   ' }, 'Name is required'],
      [{ name: 'x'.repeat(101) }, 'Name must be at most 100 characters'],
      [{ name: 'A', embeddingProvider: 'anthropic' }, expect.any(String)],
      [{ name: 'A', description: 'd'.repeat(501) }, 'Description must be at most 500 characters'],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/api/knowledge-bases', token: ada.token, payload });
      expect([res.statusCode, res.json().message]).toEqual([400, message]);
    }
  });
});

describe('adding a document', () => {
  it('answers 201 with the document queued, and never ingests in the request', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const added = await addDocument(t, ada.token, kb.id, {
      name: 'notes.md',
      mediaType: 'text/markdown',
      content: '# Notes\n\nHello',
    });
    expect(added).toMatchObject({
      knowledgeBaseId: kb.id,
      name: 'notes.md',
      mediaType: 'text/markdown',
      sizeBytes: 14,
      status: 'queued',
      error: null,
      chunkCount: 0,
    });
  });

  it('refuses an empty document, an unsupported type and text over 20 MiB with a clear message, storing nothing', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: 'empty.txt', mediaType: 'text/plain', content: '  \n\t ' }, 400, 'The document is empty'],
      [
        { name: 'a.docx', mediaType: 'application/msword', content: 'x' },
        400,
        'Upload a text, Markdown, HTML, CSV or PDF file',
      ],
      [
        { name: 'a.pdf', mediaType: 'application/pdf', content: '%PDF-1.4' },
        400,
        "A PDF is sent as contentBase64 (the file's bytes, base64), not as content",
      ],
      [
        { name: 'a.txt', mediaType: 'text/plain', contentBase64: 'aGVsbG8=' },
        400,
        'contentBase64 is only for PDF files: send the text of this document as content',
      ],
      [
        { name: 'a.pdf', mediaType: 'application/pdf', contentBase64: '%PDF-1.4 not base64!' },
        400,
        'contentBase64 is not valid base64',
      ],
      [
        {
          name: 'big.pdf',
          mediaType: 'application/pdf',
          contentBase64: Buffer.alloc(KNOWLEDGE_MAX_DOCUMENT_BYTES + 1).toString('base64'),
        },
        400,
        'The document is larger than 20 MiB',
      ],
      [{ name: '', mediaType: 'text/plain', content: 'x' }, 400, 'Name is required'],
      [
        {
          name: 'big.txt',
          mediaType: 'text/plain',
          content: 'é'.repeat(KNOWLEDGE_MAX_DOCUMENT_BYTES / 2 + 1),
        },
        400,
        'The document is larger than 20 MiB',
      ],
    ];
    for (const [payload, status, message] of cases) {
      const res = await t.request({
        method: 'POST',
        url: `/api/knowledge-bases/${kb.id}/documents`,
        token: ada.token,
        payload,
      });
      expect([res.statusCode, res.json().message]).toEqual([status, message]);
    }
    expect(await listDocuments(t, ada.token, kb.id)).toEqual([]);
  });

  it('answers a body over the route’s limit with a 413 JSON message, and other routes keep their 1 MiB limit', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const huge = JSON.stringify({
      name: 'huge.txt',
      mediaType: 'text/plain',
      content: 'x'.repeat(45 * 1024 * 1024),
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/knowledge-bases/${kb.id}/documents`,
      token: ada.token,
      headers: { 'content-type': 'application/json' },
      payload: huge,
    });
    expect([res.statusCode, res.json()]).toEqual([413, { message: 'The document is larger than 20 MiB' }]);
    // 20 MiB of text with many line breaks (longer as JSON) still fits.
    const content = 'line\n'.repeat((KNOWLEDGE_MAX_DOCUMENT_BYTES - 1024) / 5);
    const fits = await t.request({
      method: 'POST',
      url: `/api/knowledge-bases/${kb.id}/documents`,
      token: ada.token,
      payload: { name: 'lines.txt', mediaType: 'text/plain', content },
    });
    expect(fits.statusCode).toBe(201);
    await t.request({ method: 'DELETE', url: `/api/knowledge-bases/${kb.id}`, token: ada.token });
    const agent = await t.request({
      method: 'POST',
      url: '/api/agents',
      token: ada.token,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'A', role: 'R', goal: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(agent.statusCode).toBe(413);
  });
});

describe('adding a PDF', () => {
  it('answers 201 queued, with the size of the file’s bytes', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const pdf = pdfWithText([['Hello from a PDF.']]);
    const added = await addDocument(t, ada.token, kb.id, {
      name: 'hello.pdf',
      mediaType: 'application/pdf',
      contentBase64: pdf.toString('base64'),
    });
    expect(added).toMatchObject({
      name: 'hello.pdf',
      mediaType: 'application/pdf',
      sizeBytes: pdf.length,
      status: 'queued',
    });
  });

  it('takes a PDF of 20 MiB, whose base64 is a third larger, within the route’s body limit', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const bytes = Buffer.alloc(KNOWLEDGE_MAX_DOCUMENT_BYTES, 0x20);
    bytes.write('%PDF-1.4\n');
    const res = await t.request({
      method: 'POST',
      url: `/api/knowledge-bases/${kb.id}/documents`,
      token: ada.token,
      payload: { name: 'big.pdf', mediaType: 'application/pdf', contentBase64: bytes.toString('base64') },
    });
    expect([res.statusCode, res.json().sizeBytes]).toEqual([201, KNOWLEDGE_MAX_DOCUMENT_BYTES]);
    await t.request({ method: 'DELETE', url: `/api/knowledge-bases/${kb.id}`, token: ada.token });
  });
});

describe('tenant isolation', () => {
  it('keeps another organization from listing, reading, changing, adding to, searching or deleting a knowledge base', async () => {
    const kb = await createKnowledgeBase(t, ada.token, { name: 'Secret' });
    const doc = await ingest(t, ada.token, kb.id, {
      name: 'secret.txt',
      content: 'The vault code is kept by Ada.',
    });
    expect(doc.status).toBe('ready');

    const list = (await t.request({ method: 'GET', url: '/api/knowledge-bases', token: eve.token })).json();
    expect(list.map((b: { id: string }) => b.id)).not.toContain(kb.id);
    const attempts = [
      { method: 'GET', url: `/api/knowledge-bases/${kb.id}` },
      { method: 'PUT', url: `/api/knowledge-bases/${kb.id}`, payload: { name: 'Mine' } },
      { method: 'GET', url: `/api/knowledge-bases/${kb.id}/documents` },
      {
        method: 'POST',
        url: `/api/knowledge-bases/${kb.id}/documents`,
        payload: { name: 'x.txt', mediaType: 'text/plain', content: 'planted' },
      },
      { method: 'POST', url: `/api/knowledge-bases/${kb.id}/search`, payload: { query: 'vault code' } },
      { method: 'DELETE', url: `/api/knowledge-bases/${kb.id}/documents/${doc.id}` },
      { method: 'DELETE', url: `/api/knowledge-bases/${kb.id}` },
    ] as const;
    for (const attempt of attempts) {
      const res = await t.request({ ...attempt, token: eve.token });
      expect({ ...attempt, status: res.statusCode, message: res.json().message }).toEqual({
        ...attempt,
        status: 404,
        message: 'Knowledge base not found',
      });
    }
    // Eve's own knowledge base cannot reach Ada's document either.
    const own = await createKnowledgeBase(t, eve.token);
    const foreignDoc = await t.request({
      method: 'DELETE',
      url: `/api/knowledge-bases/${own.id}/documents/${doc.id}`,
      token: eve.token,
    });
    expect([foreignDoc.statusCode, foreignDoc.json().message]).toEqual([404, 'Document not found']);
    expect(await search(t, eve.token, own.id, 'vault code')).toEqual([]);

    // Everything is as Ada left it.
    const docs = await listDocuments(t, ada.token, kb.id);
    expect(docs.map((d) => [d.name, d.status])).toEqual([['secret.txt', 'ready']]);
    expect((await search(t, ada.token, kb.id, 'vault code'))[0]).toMatchObject({
      documentName: 'secret.txt',
    });
  });

  it('answers 404 for ids that are not ids', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    for (const url of ['/api/knowledge-bases/nope', `/api/knowledge-bases/${kb.id}/documents/nope`]) {
      const res = await t.request({ method: 'DELETE', url, token: ada.token });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('realtime', () => {
  it('publishes knowledge_document_updated to the organization as a document is queued, processed, ready, failed and deleted', async () => {
    const kb = await createKnowledgeBase(t, ada.token);
    const from = t.published.length;
    const ready = await ingest(t, ada.token, kb.id, { name: 'a.txt', content: 'Some words to index.' });
    const failed = await ingest(t, ada.token, kb.id, {
      name: 'b.html',
      mediaType: 'text/html',
      content: '<p> </p>',
    });
    await t.request({
      method: 'DELETE',
      url: `/api/knowledge-bases/${kb.id}/documents/${ready.id}`,
      token: ada.token,
    });
    const mine = (id: string) =>
      t.published
        .slice(from)
        .filter(
          (e): e is Extract<RealtimeEvent, { type: 'knowledge_document_updated' }> =>
            e.type === 'knowledge_document_updated' && e.documentId === id,
        );
    // queued, processing, ready (then deleted) / queued, processing, failed: through Postgres NOTIFY.
    await vi.waitFor(() => {
      expect(mine(ready.id)).toHaveLength(4);
      expect(mine(failed.id)).toHaveLength(3);
    });
    expect(mine(ready.id)[0]).toEqual({
      type: 'knowledge_document_updated',
      organizationId: ada.organization.id,
      knowledgeBaseId: kb.id,
      documentId: ready.id,
    });
  });
});
