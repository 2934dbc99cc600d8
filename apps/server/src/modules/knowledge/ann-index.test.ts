import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fakeEmbedding } from '../../testing/fake-llm-server';
import { createAnnIndex, AnnUnavailableError, type AnnIndex, type AnnSource } from './ann-index';
import { createVectorIndex } from './vector-index';
import { seededRandom } from '../../testing/seeded-random';

const DIMENSIONS = 256;

/**
 * Texts as a knowledge base holds them: each document on a topic (mostly its words, some of any),
 * embedded by the fake model (a bag of hashed words): vectors with structure, as real ones have.
 */
function corpus(seed: number) {
  const random = seededRandom(seed);
  const topics = Array.from({ length: 40 }, () =>
    Array.from({ length: 60 }, () => Math.floor(random() * 3000)),
  );
  const text = (words: number) => {
    const topic = topics[Math.floor(random() * topics.length)];
    return Array.from({ length: words }, () =>
      random() < 0.7 ? `w${topic[Math.floor(random() * topic.length)]}` : `w${Math.floor(random() * 3000)}`,
    ).join(' ');
  };
  return { embed: (t: string) => fakeEmbedding(t, DIMENSIONS), text };
}

/** A knowledge base in memory, as the repository would answer for it; counts what it is asked. */
function knowledgeBase(seed: number) {
  const { embed, text } = corpus(seed);
  const documents = new Map<string, { id: string; vector: number[] }[]>();
  const asked = { vectors: 0 };
  let version = 0;
  return {
    version: () => String(version),
    addDocument(chunks: number) {
      const id = randomUUID();
      documents.set(
        id,
        Array.from({ length: chunks }, () => ({ id: randomUUID(), vector: embed(text(60)) })),
      );
      version++;
      return id;
    },
    removeDocument(id: string) {
      documents.delete(id);
      version++;
    },
    chunkIds: (id: string) => documents.get(id)!.map((c) => c.id),
    chunkCount: () => [...documents.values()].reduce((n, c) => n + c.length, 0),
    query: () => embed(text(Math.random() < 0.5 ? 8 : 40)),
    asked,
    /** Every chunk, for exact search. */
    all() {
      const chunks = [...documents.values()].flat();
      return {
        ids: chunks.map((c) => c.id),
        vectors: Float32Array.from(chunks.flatMap((c) => c.vector)),
        dimensions: DIMENSIONS,
      };
    },
    source: {
      async documents() {
        return [...documents].map(([id, chunks]) => ({ id, chunkCount: chunks.length }));
      },
      async vectors(ids: string[]) {
        asked.vectors++;
        const chunks = ids.flatMap((id) => (documents.get(id) ?? []).map((c) => ({ ...c, documentId: id })));
        return {
          ids: chunks.map((c) => c.id),
          documentIds: chunks.map((c) => c.documentId),
          vectors: Float32Array.from(chunks.flatMap((c) => c.vector)),
        };
      },
    } satisfies AnnSource,
  };
}
type Kb = ReturnType<typeof knowledgeBase>;

const dirs: string[] = [];
const indexes: AnnIndex[] = [];
function newDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crewline-ann-'));
  dirs.push(dir);
  return dir;
}
function newIndex(dir: string, options: { rebuildAfter?: number; maxBytes?: number } = {}) {
  const index = createAnnIndex({
    dataDir: dir,
    maxBytes: options.maxBytes ?? 256 * 2 ** 20,
    rebuildAfter: options.rebuildAfter,
    batchChunks: 500,
  });
  indexes.push(index);
  return index;
}
afterEach(async () => {
  await Promise.all(indexes.splice(0).map((i) => i.close()));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const KEY = '00000000-0000-4000-8000-000000000001';

/** Searches once the first build is done (the first search starts it and is refused meanwhile). */
async function searchBuilt(index: AnnIndex, kb: Kb, query: number[], topK = 5) {
  const base = { dimensions: DIMENSIONS, chunkCount: kb.chunkCount() };
  try {
    return await index.search(KEY, kb.version(), base, kb.source, query, topK);
  } catch (error) {
    if (!(error instanceof AnnUnavailableError)) throw error;
    await index.settled(KEY);
    return index.search(KEY, kb.version(), base, kb.source, query, topK);
  }
}

function seeded(documents: number, chunks: number, seed = 1) {
  const kb = knowledgeBase(seed);
  const ids = Array.from({ length: documents }, () => kb.addDocument(chunks));
  return { kb, ids };
}

describe('approximate vector index', () => {
  it('finds what exact search finds (recall@5 ≥ 0.95 over 2,000 chunks and 50 queries)', async () => {
    const { kb } = seeded(40, 50);
    const index = newIndex(newDir());
    const exact = createVectorIndex({ maxBytes: 2 ** 30 });
    let found = 0;
    let firstRight = 0;
    for (let q = 0; q < 50; q++) {
      const query = kb.query();
      const approximate = await searchBuilt(index, kb, query);
      const truth = await exact.search('kb', '1', async () => kb.all(), query, 5);
      // Ties at the fifth place count as found: either chunk is a right answer.
      const fifth = truth[4].score;
      found += approximate.filter((hit) => hit.score >= fifth - 1e-3).length;
      expect(approximate).toHaveLength(5);
      // Approximate: the closest chunk is not always first (the graph a build makes depends on its
      // threads), but when it is, its score is the exact one within the f16 vectors' precision.
      if (approximate[0].id !== truth[0].id) continue;
      firstRight++;
      expect(approximate[0].score).toBeCloseTo(truth[0].score, 2);
    }
    expect(found / (50 * 5)).toBeGreaterThanOrEqual(0.95);
    expect(firstRight / 50).toBeGreaterThanOrEqual(0.9);
  });

  it('is refused while it is first built, then answers', async () => {
    const { kb } = seeded(4, 100);
    const index = newIndex(newDir());
    const base = { dimensions: DIMENSIONS, chunkCount: kb.chunkCount() };
    await expect(index.search(KEY, kb.version(), base, kb.source, kb.query(), 5)).rejects.toThrow(
      /being built/,
    );
    await index.settled(KEY);
    expect(index.ready(KEY)).toBe(true);
    expect(await index.search(KEY, kb.version(), base, kb.source, kb.query(), 5)).toHaveLength(5);
  });

  it('refuses a knowledge base too large for its memory, naming the setting', async () => {
    const { kb } = seeded(2, 100);
    const index = newIndex(newDir(), { maxBytes: 2 ** 20 });
    await expect(searchBuilt(index, kb, kb.query())).rejects.toThrow(/KNOWLEDGE_ANN_MEMORY_MB/);
  });

  it('writes its file under its folder, and a restart loads it rather than building it again', async () => {
    const { kb } = seeded(10, 100);
    const dir = newDir();
    const first = newIndex(dir);
    const query = kb.query();
    const before = await searchBuilt(first, kb, query);
    expect(first.stats()).toEqual({ loads: 0, builds: 1, rebuilds: 0 });
    for (const ext of ['usearch', 'ids', 'json'])
      expect(existsSync(path.join(dir, 'knowledge-index', `${KEY}.${ext}`))).toBe(true);
    const askedBefore = kb.asked.vectors;

    const restarted = newIndex(dir);
    const after = await restarted.search(
      KEY,
      kb.version(),
      { dimensions: DIMENSIONS, chunkCount: kb.chunkCount() },
      kb.source,
      query,
      5,
    );
    expect(restarted.stats()).toEqual({ loads: 1, builds: 0, rebuilds: 0 });
    expect(kb.asked.vectors).toBe(askedBefore); // no vector read from the database
    expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
  });

  it('builds again when its file is missing', async () => {
    const { kb } = seeded(6, 100);
    const dir = newDir();
    await searchBuilt(newIndex(dir), kb, kb.query());
    rmSync(path.join(dir, 'knowledge-index', `${KEY}.usearch`));
    const restarted = newIndex(dir);
    expect(await searchBuilt(restarted, kb, kb.query())).toHaveLength(5);
    expect(restarted.stats()).toEqual({ loads: 0, builds: 1, rebuilds: 0 });
    expect(existsSync(path.join(dir, 'knowledge-index', `${KEY}.usearch`))).toBe(true);
  });

  it.each([
    ['a changed byte in the index', 'usearch', (b: Buffer) => (b[b.length - 100] ^= 0xff)],
    ['a truncated index', 'usearch', (b: Buffer) => b.subarray(0, b.length >> 1)],
    ['a changed chunk id', 'ids', (b: Buffer) => (b[5] ^= 1)],
    [
      'a changed description',
      'json',
      (b: Buffer) => Buffer.from(b.toString().replace('"count\\":', '"count\\":1')),
    ],
  ] as const)('builds again, never serving it, a file with %s', async (_, ext, damage) => {
    const { kb } = seeded(6, 100);
    const dir = newDir();
    const query = kb.query();
    const expected = await searchBuilt(newIndex(dir), kb, query);
    const file = path.join(dir, 'knowledge-index', `${KEY}.${ext}`);
    const bytes = readFileSync(file);
    const damaged = damage(bytes);
    writeFileSync(file, Buffer.isBuffer(damaged) ? damaged : bytes);

    const restarted = newIndex(dir);
    const hits = await searchBuilt(restarted, kb, query);
    expect(restarted.stats()).toEqual({ loads: 0, builds: 1, rebuilds: 0 });
    // The rebuilt index answers as the first one did. Two HNSW builds of the same chunks are not the
    // same graph, so one may now and then find a near chunk in place of the fifth (CI saw it once).
    const same = hits.filter((h) => expected.some((e) => e.id === h.id));
    expect(hits).toHaveLength(5);
    expect(same.length).toBeGreaterThanOrEqual(4);
    // The rebuilt file is whole again: the next start loads it.
    const again = newIndex(dir);
    await again.search(
      KEY,
      kb.version(),
      { dimensions: DIMENSIONS, chunkCount: kb.chunkCount() },
      kb.source,
      query,
      5,
    );
    expect(again.stats().loads).toBe(1);
  });

  it('finds chunks added after it was built, also after a restart from the older file', async () => {
    const { kb } = seeded(10, 100);
    const dir = newDir();
    const index = newIndex(dir);
    await searchBuilt(index, kb, kb.query());
    const added = kb.addDocument(5);
    const [target] = kb.chunkIds(added);
    const vector = kb.all();
    const row = vector.ids.indexOf(target);
    const query = Array.from(vector.vectors.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS));

    expect((await searchBuilt(index, kb, query))[0].id).toBe(target);
    const restarted = newIndex(dir);
    expect((await searchBuilt(restarted, kb, query))[0].id).toBe(target);
    expect(restarted.stats().loads).toBe(1);
  });

  it('never answers a deleted document’s chunks again, also after a restart from the older file', async () => {
    const { kb, ids } = seeded(10, 100);
    const dir = newDir();
    const index = newIndex(dir);
    const gone = ids[3];
    const goneChunks = new Set(kb.chunkIds(gone));
    const all = kb.all();
    const row = all.ids.indexOf(kb.chunkIds(gone)[0]);
    const query = Array.from(all.vectors.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS));
    expect((await searchBuilt(index, kb, query, 20)).some((h) => goneChunks.has(h.id))).toBe(true);

    kb.removeDocument(gone);
    for (const search of [index, newIndex(dir)]) {
      const hits = await searchBuilt(search, kb, query, 20);
      expect(hits).toHaveLength(20);
      expect(hits.filter((h) => goneChunks.has(h.id))).toEqual([]);
    }
  });

  it('is rebuilt in the background once much has changed, answering meanwhile', async () => {
    const { kb, ids } = seeded(10, 100);
    const dir = newDir();
    const index = newIndex(dir, { rebuildAfter: 0.2 });
    await searchBuilt(index, kb, kb.query());
    kb.removeDocument(ids[0]);
    kb.removeDocument(ids[1]);
    kb.addDocument(100);
    // 300 chunks changed of 1,000: this search is answered by the current index and starts a rebuild.
    expect(await searchBuilt(index, kb, kb.query())).toHaveLength(5);
    await index.settled(KEY);
    expect(index.stats()).toEqual({ loads: 0, builds: 1, rebuilds: 1 });
    const restarted = newIndex(dir);
    await restarted.search(
      KEY,
      kb.version(),
      { dimensions: DIMENSIONS, chunkCount: kb.chunkCount() },
      kb.source,
      kb.query(),
      5,
    );
    expect(restarted.stats().loads).toBe(1);
    const meta = JSON.parse(
      JSON.parse(readFileSync(path.join(dir, 'knowledge-index', `${KEY}.json`), 'utf8')).body,
    );
    expect(meta.count).toBe(900);
  });

  it('writes itself as it is once much has changed when two would not fit, and a restart needs no catching up', async () => {
    const { kb, ids } = seeded(10, 100);
    const dir = newDir();
    // Room for one index of ~1,000 chunks (~18 MiB), not for a second beside it.
    const index = newIndex(dir, { rebuildAfter: 0.2, maxBytes: 24 * 2 ** 20 });
    await searchBuilt(index, kb, kb.query());
    const goneChunks = new Set([...kb.chunkIds(ids[0]), ...kb.chunkIds(ids[1])]);
    kb.removeDocument(ids[0]);
    kb.removeDocument(ids[1]);
    const added = kb.addDocument(100);
    const query = kb.query();
    const hits = await searchBuilt(index, kb, query, 20);
    await index.settled(KEY);
    expect(index.stats()).toEqual({ loads: 0, builds: 1, rebuilds: 0 });
    const meta = JSON.parse(
      JSON.parse(readFileSync(path.join(dir, 'knowledge-index', `${KEY}.json`), 'utf8')).body,
    );
    expect([meta.count, meta.live]).toEqual([1100, 900]);
    expect(meta.documents.map(([id]: [string]) => id)).toContain(added);

    const asked = kb.asked.vectors;
    const restarted = newIndex(dir, { maxBytes: 24 * 2 ** 20 });
    const again = await restarted.search(
      KEY,
      kb.version(),
      { dimensions: DIMENSIONS, chunkCount: kb.chunkCount() },
      kb.source,
      query,
      20,
    );
    expect(restarted.stats().loads).toBe(1);
    expect(kb.asked.vectors).toBe(asked);
    expect(again.map((h) => h.id)).toEqual(hits.map((h) => h.id));
    expect(again.filter((h) => goneChunks.has(h.id))).toEqual([]);
  });
});
