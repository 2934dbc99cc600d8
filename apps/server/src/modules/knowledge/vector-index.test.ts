import { describe, expect, it } from 'vitest';
import { createVectorIndex, VectorDimensionError, type VectorSet } from './vector-index';

/** A loader of fixed vectors that counts its calls. */
function loader(rows: Record<string, number[]>) {
  const ids = Object.keys(rows);
  const dimensions = rows[ids[0]]?.length ?? 2;
  const calls = { count: 0 };
  const load = async (): Promise<VectorSet> => {
    calls.count++;
    return { ids, vectors: Float32Array.from(ids.flatMap((id) => rows[id])), dimensions };
  };
  return { load, calls };
}

const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

describe('vector index', () => {
  it('ranks by cosine similarity, whatever the vectors’ lengths, and answers at most topK', async () => {
    const index = createVectorIndex();
    const { load } = loader({ east: [10, 0], north: [0, 3], northeast: [2, 2], west: [-1, 0] });

    const hits = await index.search('kb', 'v1', load, [1, 0.1], 3);

    expect(ids(hits)).toEqual(['east', 'northeast', 'north']);
    expect(hits[0].score).toBeCloseTo(1 / Math.hypot(1, 0.1), 6);
    expect(hits[1].score).toBeCloseTo((1 + 0.1) / Math.hypot(1, 0.1) / Math.SQRT2, 6);
    const all = await index.search('kb', 'v1', load, [1, 0], 10);
    expect(ids(all)).toEqual(['east', 'northeast', 'north', 'west']);
    expect(all.map((h) => Math.round(h.score * 1000) / 1000)).toEqual([1, 0.707, 0, -1]);
  });

  it('ranks equal scores in load order', async () => {
    const index = createVectorIndex();
    const rows: Record<string, number[]> = {};
    for (let i = 0; i < 50; i++) rows[`same-${i}`] = [1, 1];
    rows.best = [1, 0.9];
    const hits = await index.search('kb', 'v1', loader(rows).load, [1, 1], 5);
    expect(ids(hits)).toEqual(['same-0', 'same-1', 'same-2', 'same-3', 'same-4']);
  });

  it('finds the same top k as a full sort over many random vectors', async () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const rows: Record<string, number[]> = {};
    for (let i = 0; i < 2000; i++) rows[`r${i}`] = Array.from({ length: 16 }, random);
    const query = Array.from({ length: 16 }, random);
    const hits = await createVectorIndex().search('kb', 'v', loader(rows).load, query, 10);

    const norm = (v: number[]) => Math.hypot(...v);
    const cosine = (v: number[]) => v.reduce((s, x, i) => s + x * query[i], 0) / norm(v) / norm(query);
    const expected = Object.entries(rows)
      .map(([id, v]) => ({ id, score: cosine(v) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    expect(ids(hits)).toEqual(ids(expected));
    hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i].score, 5));
  });

  it('keeps loaded vectors while the version is unchanged and loads again when it changes', async () => {
    const index = createVectorIndex();
    const first = loader({ a: [1, 0] });
    await index.search('kb', 'v1', first.load, [1, 0], 1);
    await index.search('kb', 'v1', first.load, [0, 1], 1);
    expect(first.calls.count).toBe(1);

    const second = loader({ a: [1, 0], b: [0, 1] });
    expect(ids(await index.search('kb', 'v2', second.load, [0, 1], 1))).toEqual(['b']);
    expect(second.calls.count).toBe(1);
  });

  it('shares one load between searches of the same key and version at the same time', async () => {
    const index = createVectorIndex();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { load, calls } = loader({ a: [1, 0], b: [0, 1] });
    const slow = async () => {
      await gate;
      return load();
    };
    const searches = [
      index.search('kb', 'v1', slow, [1, 0], 1),
      index.search('kb', 'v1', slow, [0, 1], 1),
      index.search('kb', 'v1', slow, [1, 1], 2),
    ];
    release();
    const results = await Promise.all(searches);
    expect(calls.count).toBe(1);
    expect(results.map(ids)).toEqual([['a'], ['b'], ['a', 'b']]);
  });

  it('evicts the least recently searched keys past its memory budget', async () => {
    // Each key: 1,000 vectors of 8 float32 (32 KB) plus its ids.
    const big = () => {
      const rows: Record<string, number[]> = {};
      for (let i = 0; i < 1000; i++) rows[`r${i}`] = [1, 0, 0, 0, 0, 0, 0, i];
      return loader(rows);
    };
    const index = createVectorIndex({ maxBytes: 250_000 });
    const [a, b, c] = [big(), big(), big()];
    await index.search('a', 'v', a.load, [1, 0, 0, 0, 0, 0, 0, 0], 1);
    await index.search('b', 'v', b.load, [1, 0, 0, 0, 0, 0, 0, 0], 1);
    await index.search('a', 'v', a.load, [1, 0, 0, 0, 0, 0, 0, 0], 1); // a is now the most recent
    await index.search('c', 'v', c.load, [1, 0, 0, 0, 0, 0, 0, 0], 1); // b goes
    await index.search('a', 'v', a.load, [1, 0, 0, 0, 0, 0, 0, 0], 1);
    await index.search('b', 'v', b.load, [1, 0, 0, 0, 0, 0, 0, 0], 1);
    expect([a.calls.count, b.calls.count, c.calls.count]).toEqual([1, 2, 1]);

    // A key larger than the budget alone is searched but not kept.
    const tiny = createVectorIndex({ maxBytes: 1000 });
    const d = big();
    await tiny.search('d', 'v', d.load, [1, 0, 0, 0, 0, 0, 0, 0], 1);
    await tiny.search('d', 'v', d.load, [1, 0, 0, 0, 0, 0, 0, 0], 1);
    expect(d.calls.count).toBe(2);
  });

  it('forgets a key on request, and a failed load is tried again', async () => {
    const index = createVectorIndex();
    const { load, calls } = loader({ a: [1, 0] });
    await index.search('kb', 'v1', load, [1, 0], 1);
    index.forget('kb');
    await index.search('kb', 'v1', load, [1, 0], 1);
    expect(calls.count).toBe(2);

    let fail = true;
    const flaky = async () => {
      if (fail) throw new Error('database unavailable');
      return load();
    };
    await expect(index.search('other', 'v1', flaky, [1, 0], 1)).rejects.toThrow('database unavailable');
    fail = false;
    expect(ids(await index.search('other', 'v1', flaky, [1, 0], 1))).toEqual(['a']);
  });

  it('refuses a query of another length than the vectors', async () => {
    const index = createVectorIndex();
    const search = index.search('kb', 'v1', loader({ a: [1, 0, 0] }).load, [1, 0], 1);
    await expect(search).rejects.toBeInstanceOf(VectorDimensionError);
    await expect(search).rejects.toThrow('The query has 2 dimensions but the stored vectors have 3');
  });

  it('answers nothing for an empty key or topK 0, and scores a zero vector 0', async () => {
    const index = createVectorIndex();
    const empty = async (): Promise<VectorSet> => ({ ids: [], vectors: new Float32Array(0), dimensions: 2 });
    expect(await index.search('empty', 'v1', empty, [1, 0], 5)).toEqual([]);
    const { load } = loader({ zero: [0, 0], a: [1, 0] });
    expect(await index.search('kb', 'v1', load, [1, 0], 0)).toEqual([]);
    expect(await index.search('kb', 'v1', load, [0, 1], 2)).toEqual([
      { id: 'zero', score: 0 },
      { id: 'a', score: 0 },
    ]);
  });

  it('refuses a load whose vectors do not match its ids', async () => {
    const index = createVectorIndex();
    const bad = async (): Promise<VectorSet> => ({
      ids: ['a', 'b'],
      vectors: new Float32Array(3),
      dimensions: 2,
    });
    await expect(index.search('kb', 'v1', bad, [1, 0], 1)).rejects.toThrow('2 ids but 1.5 vectors');
  });
});
