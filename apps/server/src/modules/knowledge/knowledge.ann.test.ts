import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { configureModel } from '../../testing/app-fixtures';
import { fakeEmbedding, startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder } from '../../testing/fake-model-suite';
import { jsonLogLines } from '../../testing/json-log-lines';
import { createKnowledgeBase, ingest, search } from '../../testing/knowledge-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { encodeVector } from '../../platform/llm/vector-codec';
import { seededRandom } from '../../testing/seeded-random';

/*
 * Knowledge bases past KNOWLEDGE_ANN_MIN_CHUNKS (1,000 here) through the API, on real Postgres: the
 * approximate index is built from the stored chunks, kept in DATA_DIR, and answers as exact search would.
 */
const MIN_CHUNKS = 1000;
const log = jsonLogLines<{ msg: string; knowledgeBaseId?: string }>();
let t: TestApp, fake: FakeLlmServer, ada: AuthResponse;
beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({
    worker: true,
    loggerInstance: pino({ level: 'info' }, log.stream),
    config: { knowledgeAnn: { minChunks: MIN_CHUNKS, memoryBytes: 256 * 2 ** 20, efSearch: 1024 } },
  });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
});
afterAll(() => closeInOrder(t, fake));

const random = seededRandom(3);
const topics = Array.from({ length: 40 }, () =>
  Array.from({ length: 60 }, () => Math.floor(random() * 3000)),
);
/** Words of one topic mostly, as a document's passages are: the fake model's vectors then have structure. */
const passage = (words: number) => {
  const topic = topics[Math.floor(random() * topics.length)];
  return Array.from({ length: words }, () =>
    random() < 0.7 ? `w${topic[Math.floor(random() * topic.length)]}` : `w${Math.floor(random() * 3000)}`,
  ).join(' ');
};

/** Ready documents of `perDocument` chunks written as ingestion leaves them, with the fake model's vectors. */
async function seed(
  app: TestApp,
  knowledgeBaseId: string,
  organizationId: string,
  documents: number,
  perDocument: number,
) {
  const stored: { text: string; vector: number[] }[] = [];
  for (let d = 0; d < documents; d++) {
    const {
      rows: [doc],
    } = await app.database.pool.query<{ id: string }>(
      `INSERT INTO knowledge_documents
         (knowledge_base_id, organization_id, name, media_type, size_bytes, content, status, chunk_count)
       VALUES ($1, $2, $3, 'text/plain', 0, '', 'ready', $4) RETURNING id`,
      [knowledgeBaseId, organizationId, `seeded-${d}.txt`, perDocument],
    );
    const texts = Array.from({ length: perDocument }, () => passage(60));
    const vectors = texts.map((text) => fakeEmbedding(text));
    await app.database.pool.query(
      `INSERT INTO knowledge_chunks (document_id, knowledge_base_id, organization_id, chunk_index, text, embedding)
       SELECT $1, $2, $3, i - 1, ($4::text[])[i], ($5::bytea[])[i] FROM generate_series(1, $6::int) AS i`,
      [doc.id, knowledgeBaseId, organizationId, texts, vectors.map(encodeVector), perDocument],
    );
    texts.forEach((text, i) => stored.push({ text, vector: vectors[i] }));
  }
  await app.database.pool.query(
    'UPDATE knowledge_bases SET dimensions = 1536, version = version + 1 WHERE id = $1',
    [knowledgeBaseId],
  );
  return stored;
}

/** The k best scores of exact cosine search over the stored chunks (the fake's vectors are unit length). */
function exactScores(stored: { vector: number[] }[], query: string, k: number) {
  const q = fakeEmbedding(query);
  return stored
    .map((s) => s.vector.reduce((sum, x, i) => sum + x * q[i], 0))
    .sort((a, b) => b - a)
    .slice(0, k);
}

/** The scores exact search gives, to the 4 decimals the API rounds to. */
function expectScores(hits: { score: number }[], exact: number[]) {
  expect(hits).toHaveLength(exact.length);
  hits.forEach((hit, i) => expect(Math.abs(hit.score - exact[i])).toBeLessThan(2e-4));
}

const indexFile = (knowledgeBaseId: string) =>
  path.join(t.config.dataDir, 'knowledge-index', `${knowledgeBaseId}.json`);

async function until(condition: () => boolean, what: string, timeoutMs = 30_000) {
  for (const deadline = Date.now() + timeoutMs; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a knowledge base past KNOWLEDGE_ANN_MIN_CHUNKS', () => {
  let kbId: string;
  let stored: { text: string; vector: number[] }[];
  beforeAll(async () => {
    const kb = await createKnowledgeBase(t, ada.token, { name: 'Large' });
    kbId = kb.id;
    stored = await seed(t, kb.id, ada.organization.id, 20, 100);
  });

  it('is answered exactly while its index is built, then through the index kept in DATA_DIR, as exact search would', async () => {
    const first = passage(8);
    // The first search starts the build and is answered by exact search meanwhile.
    const hits = await search(t, ada.token, kbId, first);
    expectScores(hits, exactScores(stored, first, 5));
    await until(() => existsSync(indexFile(kbId)), 'the index file');
    await until(
      () => log.lines.some((l) => l.msg === 'vector index built' && l.knowledgeBaseId === kbId),
      'the build',
    );

    let found = 0;
    for (let q = 0; q < 50; q++) {
      const query = passage(q % 2 ? 8 : 40);
      const approximate = await search(t, ada.token, kbId, query);
      const exact = exactScores(stored, query, 5);
      expect(approximate).toHaveLength(5);
      // Ties at the fifth place count as found: either chunk is a right answer.
      found += approximate.filter((hit) => hit.score >= exact[4] - 1e-3).length;
    }
    expect(found / (50 * 5)).toBeGreaterThanOrEqual(0.95);
  });

  it('finds a document ingested after the build and never answers a deleted one again', async () => {
    const added = await ingest(t, ada.token, kbId, {
      name: 'vault.txt',
      content: 'The vault combination is kept by the night porter zebra quokka.',
    });
    expect(added.status).toBe('ready');
    const [hit] = await search(t, ada.token, kbId, 'vault combination night porter zebra quokka');
    expect(hit).toMatchObject({ documentName: 'vault.txt', documentId: added.id });

    const removed = await t.request({
      method: 'DELETE',
      url: `/api/knowledge-bases/${kbId}/documents/${added.id}`,
      token: ada.token,
    });
    expect(removed.statusCode).toBe(204);
    const after = await search(t, ada.token, kbId, 'vault combination night porter zebra quokka', 20);
    expect(after).toHaveLength(20);
    expect(after.filter((h) => h.documentId === added.id)).toEqual([]);
    // Not served by the exact scan: no second build, the index caught up with the change.
    expect(
      log.lines.filter((l) => l.msg === 'vector index built' && l.knowledgeBaseId === kbId),
    ).toHaveLength(1);
  });

  it('removes its index files when the knowledge base is deleted', async () => {
    expect(existsSync(indexFile(kbId))).toBe(true);
    const res = await t.request({ method: 'DELETE', url: `/api/knowledge-bases/${kbId}`, token: ada.token });
    expect(res.statusCode).toBe(204);
    expect(existsSync(indexFile(kbId))).toBe(false);
  });
});

describe('a knowledge base below KNOWLEDGE_ANN_MIN_CHUNKS', () => {
  it('is searched exactly, with no index built or written', async () => {
    const kb = await createKnowledgeBase(t, ada.token, { name: 'Small' });
    const stored = await seed(t, kb.id, ada.organization.id, 9, 100);
    const query = passage(8);
    const hits = await search(t, ada.token, kb.id, query);
    expectScores(hits, exactScores(stored, query, 5));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(indexFile(kb.id))).toBe(false);
    expect(log.lines.filter((l) => l.knowledgeBaseId === kb.id)).toEqual([]);
  });
});

describe('a knowledge base whose vectors do not fit the exact search’s memory', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({
      worker: true,
      config: {
        knowledgeSearchMemoryBytes: 2 ** 20,
        knowledgeAnn: { minChunks: MIN_CHUNKS, memoryBytes: 256 * 2 ** 20, efSearch: 1024 },
      },
    });
  });
  afterAll(() => small.close());

  it('answers 503 while its index is built, then answers through it', async () => {
    const owner = await small.signup();
    await configureModel(small, owner.token, fake.url);
    const kb = await createKnowledgeBase(small, owner.token, { name: 'Large' });
    await seed(small, kb.id, owner.organization.id, 12, 100);
    const ask = () =>
      small.request({
        method: 'POST',
        url: `/api/knowledge-bases/${kb.id}/search`,
        token: owner.token,
        payload: { query: passage(8), topK: 5 },
      });
    const refused = await ask();
    expect([refused.statusCode, refused.json().message]).toEqual([
      503,
      "This knowledge base's search index is being built; search it again in a few minutes.",
    ]);
    let answered = refused;
    for (const deadline = Date.now() + 30_000; answered.statusCode === 503 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answered = await ask();
    }
    expect(answered.statusCode).toBe(200);
    expect(answered.json().hits).toHaveLength(5);
  });
});
