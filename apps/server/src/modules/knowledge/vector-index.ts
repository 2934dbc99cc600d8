/** Vectors as loaded for one key: row i of `vectors` (`dimensions` long) belongs to `ids[i]`. */
export type VectorSet = { ids: string[]; vectors: Float32Array; dimensions: number };

type VectorHit = { id: string; score: number };

export type VectorIndex = {
  /**
   * The `topK` closest vectors of `key` to `query` by cosine similarity, closest first (equal scores
   * in load order). `version` names the vectors' state: while it is unchanged the loaded vectors are
   * reused; a new one loads them again. `load` owns nothing afterwards: its Float32Array is
   * normalised in place and kept.
   */
  search(
    key: string,
    version: string,
    load: () => Promise<VectorSet>,
    query: number[],
    topK: number,
  ): Promise<VectorHit[]>;
  /** Drops a key's vectors (its knowledge base was deleted). */
  forget(key: string): void;
  /** Whether `count` vectors of `dimensions` fit the memory budget (else each search loads them again). */
  fits(count: number, dimensions: number): boolean;
};

export type VectorIndexOptions = {
  /**
   * Memory for loaded vectors; least recently searched keys go first past it. Default 256 MiB (the
   * app passes KNOWLEDGE_SEARCH_MEMORY_MB).
   */
  maxBytes?: number;
};

/** A query whose length is not the vectors' (a model changed under a knowledge base). */
export class VectorDimensionError extends Error {
  override name = 'VectorDimensionError';
}

type Loaded = { ids: string[]; vectors: Float32Array; dimensions: number; count: number; bytes: number };
type Entry = { version: string; loading: Promise<Loaded>; loaded?: Loaded };

// A rough cost of an id string and its array slot, for the memory budget.
const ID_BYTES = 80;

/**
 * Exact nearest-neighbour search in memory: every vector of a key is scored against the query (a dot
 * product of unit vectors, so the cosine), keeping the best k in a small heap. No index to build or
 * tune and no recall lost; the scan grows with the vectors (on 2 cores with 1,536 dimensions: a median
 * of about 10 ms over 10,000 and 100–150 ms over 100,000, `npm run bench -- knowledge`).
 */
export function createVectorIndex(options: VectorIndexOptions = {}): VectorIndex {
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  // Map order is recency order: a key searched is moved to the end.
  const entries = new Map<string, Entry>();

  function entryFor(key: string, version: string, load: () => Promise<VectorSet>) {
    const current = entries.get(key);
    if (current && current.version === version) {
      entries.delete(key);
      entries.set(key, current);
      return current;
    }
    const entry: Entry = { version, loading: Promise.resolve().then(load).then(prepare) };
    entries.delete(key);
    entries.set(key, entry);
    entry.loading.then(
      (loaded) => {
        entry.loaded = loaded;
        if (entries.get(key) === entry) evict(key);
      },
      () => {
        // A failed load is not kept: the next search tries again.
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry;
  }

  /** Least recently searched first, until the loaded vectors fit; a key too large alone is not kept. */
  function evict(justLoaded: string) {
    let total = 0;
    for (const entry of entries.values()) total += entry.loaded?.bytes ?? 0;
    for (const [key, entry] of entries) {
      if (total <= maxBytes) return;
      if (key === justLoaded || !entry.loaded) continue;
      entries.delete(key);
      total -= entry.loaded.bytes;
    }
    if (total > maxBytes) entries.delete(justLoaded);
  }

  async function search(
    key: string,
    version: string,
    load: () => Promise<VectorSet>,
    query: number[],
    topK: number,
  ): Promise<VectorHit[]> {
    const loaded = await entryFor(key, version, load).loading;
    if (query.length !== loaded.dimensions) {
      throw new VectorDimensionError(
        `The query has ${query.length} dimensions but the stored vectors have ${loaded.dimensions}`,
      );
    }
    const k = Math.min(Math.floor(topK), loaded.count);
    if (!(k > 0)) return [];
    return best(loaded, unit(Float32Array.from(query)), k);
  }

  return {
    search,
    forget(key) {
      entries.delete(key);
    },
    fits: (count, dimensions) => count * (dimensions * 4 + ID_BYTES) <= maxBytes,
  };
}

function prepare(set: VectorSet): Loaded {
  const { ids, vectors, dimensions } = set;
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new Error(`Invalid dimensions: ${dimensions}`);
  if (vectors.length !== ids.length * dimensions) {
    throw new Error(
      `${ids.length} ids but ${vectors.length / dimensions} vectors of ${dimensions} dimensions`,
    );
  }
  for (let offset = 0; offset < vectors.length; offset += dimensions) {
    unit(vectors.subarray(offset, offset + dimensions));
  }
  return { ids, vectors, dimensions, count: ids.length, bytes: vectors.byteLength + ids.length * ID_BYTES };
}

/** Scales a vector to length 1 in place; a zero vector stays zero (it scores 0 against anything). */
function unit(v: Float32Array) {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (sum > 0) {
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i] *= scale;
  }
  return v;
}

/**
 * The k best rows by dot product with `query`. A min-heap of k (row, score) pairs: its root is the
 * worst kept, replaced when a row scores higher. Rows are scanned in order and a later row must score
 * strictly higher, so equal scores keep the earlier row: ties rank in load order.
 */
function best(loaded: Loaded, query: Float32Array, k: number): VectorHit[] {
  const { vectors, dimensions, count } = loaded;
  const rows = new Int32Array(k);
  const scores = new Float64Array(k);
  let size = 0;

  // a ranks below b: a lower score, or the same score from a later row.
  const worse = (i: number, j: number) =>
    scores[i] < scores[j] || (scores[i] === scores[j] && rows[i] > rows[j]);
  const swap = (i: number, j: number) => {
    const r = rows[i];
    rows[i] = rows[j];
    rows[j] = r;
    const s = scores[i];
    scores[i] = scores[j];
    scores[j] = s;
  };
  const siftDown = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && worse(l, m)) m = l;
      if (r < size && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };

  for (let row = 0; row < count; row++) {
    const offset = row * dimensions;
    let score = 0;
    for (let d = 0; d < dimensions; d++) score += vectors[offset + d] * query[d];
    if (size < k) {
      rows[size] = row;
      scores[size] = score;
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (score > scores[0]) {
      rows[0] = row;
      scores[0] = score;
      siftDown(0);
    }
  }

  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) =>
    worse(a, b) ? 1 : worse(b, a) ? -1 : 0,
  );
  return order.map((i) => ({ id: loaded.ids[rows[i]], score: scores[i] }));
}
