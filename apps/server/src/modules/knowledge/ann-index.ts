import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { formatNumber } from '@crewline/contracts/format-number';
import { startAnnThread, type AnnThread, type AnnThreadSettings } from './ann-thread';
import { VectorDimensionError } from './vector-index';

/** What the index of one knowledge base reads from Postgres. */
export type AnnSource = {
  /** Its ready documents that have chunks, as they are now. */
  documents(): Promise<{ id: string; chunkCount: number }[]>;
  /**
   * The chunks of these documents, a document's chunks together: their ids, their document's id, and
   * their vectors (float32, the knowledge base's dimensions each, row i for ids[i]).
   */
  vectors(documentIds: string[]): Promise<{ ids: string[]; documentIds: string[]; vectors: Float32Array }>;
};

type Logger = {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
};

export type AnnIndexOptions = {
  /** The process's DATA_DIR: the index files are kept in its knowledge-index folder. */
  dataDir: string;
  /** Memory for the indexes of this process (KNOWLEDGE_ANN_MEMORY_MB); least recently searched go first. */
  maxBytes: number;
  settings?: Partial<Omit<AnnThreadSettings, 'dimensions'>>;
  /** Rebuilt in the background once the chunks added or removed since its file exceed this share of it. */
  rebuildAfter?: number;
  /** Chunks read from Postgres and added per step of a build. */
  batchChunks?: number;
  log?: Logger;
};

/** The index cannot answer now: being built, or larger than its memory. The caller searches otherwise or says so. */
export class AnnUnavailableError extends Error {
  override name = 'AnnUnavailableError';
}

type VectorHit = { id: string; score: number };

/**
 * M 16, ef_construction 256, vectors as f16 (3.6 KiB a chunk of 1,536 dimensions); ef_search 1280
 * by default (KNOWLEDGE_ANN_EF_SEARCH): at a million chunks the bench found recall@5 0.951 with it,
 * where 1024 gave 0.938–0.956, at a p99 of 54 ms against 47 (ADR 0056).
 * Only M, ef_construction and the quantisation shape the file; ef_search may change at any start.
 */
const defaultAnnSettings: Omit<AnnThreadSettings, 'dimensions'> = {
  quantization: 'f16',
  connectivity: 16,
  expansionAdd: 256,
  expansionSearch: 1280,
  threads: 0,
};

const FORMAT = 1;
const scalarBytes = { f32: 4, f16: 2, i8: 1 } as const;

/**
 * The chunk id of each key: 16 bytes apiece in one buffer (a million in 16 MiB, and nothing to decode
 * when a file is loaded), zeros once forgotten. Only the hits' ids become strings.
 */
class ChunkIds {
  constructor(
    private bytes: Buffer = Buffer.alloc(0),
    public length = 0,
  ) {}

  push(id: string) {
    if ((this.length + 1) * 16 > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(1024, this.bytes.length * 2));
      this.bytes.copy(grown);
      this.bytes = grown;
    }
    this.bytes.write(id.replaceAll('-', ''), this.length * 16, 16, 'hex');
    this.length++;
  }

  get(key: number): string | null {
    if (key >= this.length || this.forgotten(key)) return null;
    const h = this.bytes.toString('hex', key * 16, key * 16 + 16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** Forgets a key's chunk; false when it already was. */
  forget(key: number) {
    if (key >= this.length || this.forgotten(key)) return false;
    this.bytes.fill(0, key * 16, key * 16 + 16);
    return true;
  }

  /** As written to the .ids file. */
  encoded() {
    return this.bytes.subarray(0, this.length * 16);
  }

  private forgotten(key: number) {
    return this.bytes.readBigUInt64LE(key * 16) === 0n && this.bytes.readBigUInt64LE(key * 16 + 8) === 0n;
  }
}

/** One loaded index: usearch's key n is the chunk ids.get(n) (null once its document is gone). */
type Ann = {
  thread: AnnThread;
  ids: ChunkIds;
  /** The documents in it, each a run of keys. */
  documents: Map<string, { first: number; count: number }>;
  live: number;
  /** Chunks in the file it came from, and chunks added or removed since. */
  fileCount: number;
  changed: number;
  /** The knowledge base's version it last caught up with (null: not yet). */
  version: string | null;
  sync: Promise<void>;
  bytes: number;
};

type Entry = {
  dimensions: number;
  ann?: Ann;
  /** Settles once reading the file ended: with the index, or undefined when it is being built instead. */
  ready: Promise<Ann | undefined>;
  /** A build (the first, or one replacing `ann`) and the memory it takes meanwhile. */
  building?: Promise<void>;
  buildingBytes: number;
};

/** The file's contents as written beside the index: what it holds and how to check it is that file. */
type Meta = {
  format: number;
  dimensions: number;
  quantization: string;
  connectivity: number;
  expansionAdd: number;
  count: number;
  /** Keys whose chunk is still there (the others were removed before the file was written). */
  live: number;
  indexBytes: number;
  indexCrc: number;
  idsCrc: number;
  /** [document id, first key, chunks]. */
  documents: [string, number, number][];
  builtAt: string;
};

/**
 * Approximate nearest-neighbour search (HNSW through usearch) for knowledge bases past the exact
 * scan's reach, one index per knowledge base, each on a thread of its own (ann-thread.ts).
 *
 * - Persisted beside the data: DATA_DIR/knowledge-index/<id>.usearch, the chunk ids by key (<id>.ids)
 *   and what it covers (<id>.json, written last: the others' sizes and checksums, the documents). A
 *   missing, unreadable, changed or differently configured file is rebuilt from Postgres, never read.
 * - Fresh: chunks arrive and leave a document at a time (ingestion stores all of a document's chunks
 *   in one transaction, a delete removes them all), so when the knowledge base's version moves, the
 *   ready documents are compared with the ones indexed: a new document's chunks are added, a deleted
 *   one's removed (usearch never returns them again, and their ids are forgotten here). A restart
 *   catches up the same way from what the file covers. Past `rebuildAfter` changed, a build in the
 *   background replaces it (the current one serves until then), or when two would not fit in
 *   `maxBytes`, the current one is written as it is.
 * - Never blocks the event loop: loads, builds, adds and searches run on the index's thread.
 */
export function createAnnIndex(options: AnnIndexOptions) {
  const settings = { ...defaultAnnSettings, ...options.settings };
  const rebuildAfter = options.rebuildAfter ?? 0.2;
  const batchChunks = options.batchChunks ?? 10_000;
  const log = options.log;
  const dir = path.join(options.dataDir, 'knowledge-index');
  // Map order is recency order, as in vector-index.ts.
  const entries = new Map<string, Entry>();
  const stats = { loads: 0, builds: 0, rebuilds: 0 };

  const files = (key: string) => {
    const base = path.join(dir, key);
    return { index: `${base}.usearch`, ids: `${base}.ids`, meta: `${base}.json` };
  };
  const threadSettings = (dimensions: number): AnnThreadSettings => ({ ...settings, dimensions });

  /**
   * Memory of an index of `count` vectors: the vectors, their links (2M on the base layer, the upper
   * layers and the graph's slack as much again), node headers, the ids here. The bench measured
   * 3.6 KiB a chunk of 1,536 dimensions in the server's RSS (200,000 chunks: 708 MiB over its idle RSS).
   */
  const estimate = (count: number, dimensions: number) =>
    Math.ceil(
      count * (dimensions * scalarBytes[settings.quantization] + settings.connectivity * 2 * 4 * 2 + 350),
    ) +
    16 * 1024 * 1024;

  /**
   * Room for `bytes` more: least recently searched indexes are closed until they fit. An index that
   * would not fit alone is refused (the caller answers that it is too large for this server).
   */
  function reserve(key: string, bytes: number) {
    const own = entries.get(key);
    const ownBytes = (own?.ann?.bytes ?? 0) + (own?.buildingBytes ?? 0);
    if (ownBytes + bytes > options.maxBytes) {
      throw new AnnUnavailableError(
        `This knowledge base is too large to search on this server: its index needs ${mib(ownBytes + bytes)} MiB of the ` +
          `${mib(options.maxBytes)} MiB allowed (KNOWLEDGE_ANN_MEMORY_MB).`,
      );
    }
    let total = 0;
    for (const entry of entries.values()) total += (entry.ann?.bytes ?? 0) + entry.buildingBytes;
    for (const [other, entry] of entries) {
      if (total + bytes <= options.maxBytes) return;
      if (other === key) continue;
      total -= (entry.ann?.bytes ?? 0) + entry.buildingBytes;
      release(other);
    }
  }

  function release(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    void entry.ann?.thread.close();
  }

  /** The file's description if it is whole and made as this process would make it. */
  function readMeta(key: string, dimensions: number): { meta: Meta; ids: ChunkIds } | string {
    const paths = files(key);
    let meta: Meta;
    try {
      const stored = JSON.parse(readFileSync(paths.meta, 'utf8')) as { body: string; crc: number };
      if (crc32(stored.body) !== stored.crc) return 'its description is damaged';
      meta = JSON.parse(stored.body) as Meta;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'there is none'
        : 'its description is unreadable';
    }
    if (meta.format !== FORMAT || !Number.isInteger(meta.live)) return `it has format ${meta.format}`;
    if (meta.dimensions !== dimensions) return `it has ${meta.dimensions} dimensions, not ${dimensions}`;
    if (
      meta.quantization !== settings.quantization ||
      meta.connectivity !== settings.connectivity ||
      meta.expansionAdd !== settings.expansionAdd
    ) {
      return 'it was made with other settings';
    }
    let raw: Buffer;
    try {
      raw = readFileSync(paths.ids);
    } catch {
      return 'its chunk ids are missing';
    }
    if (raw.length !== meta.count * 16 || crc32(raw) !== meta.idsCrc) return 'its chunk ids are damaged';
    return { meta, ids: new ChunkIds(raw, meta.count) };
  }

  function open(key: string, dimensions: number, source: AnnSource): Entry {
    const entry: Entry = { dimensions, ready: Promise.resolve(undefined), buildingBytes: 0 };
    entries.set(key, entry);
    const found = readMeta(key, dimensions);
    if (typeof found === 'string') {
      if (found !== 'there is none')
        log?.warn({ knowledgeBaseId: key, reason: found }, 'vector index file not used; rebuilding it');
      startBuild(key, entry, source);
      return entry;
    }
    entry.ready = load(key, entry, found.meta, found.ids).then(
      (ann) => {
        if (ann) return ann;
        startBuild(key, entry, source);
        return undefined;
      },
      (error: unknown) => {
        if (entries.get(key) === entry) entries.delete(key);
        throw error;
      },
    );
    return entry;
  }

  async function load(key: string, entry: Entry, meta: Meta, ids: ChunkIds): Promise<Ann | undefined> {
    const bytes = estimate(meta.count, meta.dimensions);
    reserve(key, bytes);
    const thread = startAnnThread(threadSettings(meta.dimensions));
    const started = performance.now();
    try {
      await thread.request({
        op: 'load',
        path: files(key).index,
        bytes: meta.indexBytes,
        crc: meta.indexCrc,
      });
    } catch (error) {
      await thread.close();
      log?.warn(
        { knowledgeBaseId: key, reason: (error as Error).message },
        'vector index file not used; rebuilding it',
      );
      return undefined;
    }
    if (entries.get(key) !== entry) {
      await thread.close();
      return undefined;
    }
    stats.loads++;
    log?.info(
      { knowledgeBaseId: key, chunks: meta.count, ms: Math.round(performance.now() - started) },
      'vector index loaded',
    );
    const documents = new Map(meta.documents.map(([id, first, count]) => [id, { first, count }]));
    const ann: Ann = {
      thread,
      ids,
      documents,
      live: meta.live,
      fileCount: ids.length,
      changed: 0,
      version: null,
      sync: Promise.resolve(),
      bytes,
    };
    entry.ann = ann;
    return ann;
  }

  /** Builds the index from Postgres in the background; a current one (a rebuild) serves meanwhile. */
  function startBuild(key: string, entry: Entry, source: AnnSource) {
    if (entry.building) return;
    const replacing = entry.ann !== undefined;
    entry.building = (async () => {
      const started = performance.now();
      const ann = await build(key, entry, source);
      if (!ann) return;
      const old = entry.ann;
      entry.ann = ann;
      entry.buildingBytes = 0;
      if (old) {
        // Searches already sent to the old thread are answered before it stops.
        void old.sync.then(
          () => old.thread.close(),
          () => old.thread.close(),
        );
        stats.rebuilds++;
      } else stats.builds++;
      log?.info(
        {
          knowledgeBaseId: key,
          chunks: ann.ids.length,
          seconds: Math.round(performance.now() - started) / 1000,
          replacing,
        },
        'vector index built',
      );
    })()
      .catch((error: unknown) => {
        // A failed first build leaves nothing: the next search starts another. A failed rebuild keeps the current index.
        log?.warn({ knowledgeBaseId: key, error: (error as Error).message }, 'vector index build failed');
        if (!entry.ann && entries.get(key) === entry) entries.delete(key);
        // A refused rebuild is tried again only after as many changes again.
        if (entry.ann) entry.ann.changed = 0;
      })
      .finally(() => {
        entry.building = undefined;
        entry.buildingBytes = 0;
      });
  }

  async function build(key: string, entry: Entry, source: AnnSource): Promise<Ann | undefined> {
    const documents = await source.documents();
    const total = documents.reduce((sum, d) => sum + d.chunkCount, 0);
    const bytes = estimate(total, entry.dimensions);
    reserve(key, bytes);
    entry.buildingBytes = bytes;
    const ann: Ann = {
      thread: startAnnThread(threadSettings(entry.dimensions)),
      ids: new ChunkIds(),
      documents: new Map(),
      live: 0,
      fileCount: 0,
      changed: 0,
      version: null,
      sync: Promise.resolve(),
      bytes,
    };
    try {
      for (const batch of batches(documents, batchChunks)) {
        // Forgotten or evicted meanwhile: the work stops here.
        if (entries.get(key) !== entry) {
          await ann.thread.close();
          return undefined;
        }
        const before = ann.ids.length;
        await addChunks(ann, batch, source, entry.dimensions);
        // A large build takes minutes: its progress every 100,000 chunks.
        if (Math.floor(ann.ids.length / 100_000) > Math.floor(before / 100_000)) {
          log?.info({ knowledgeBaseId: key, chunks: ann.ids.length, of: total }, 'vector index building');
        }
      }
      ann.fileCount = ann.ids.length;
      if (entries.get(key) !== entry) {
        await ann.thread.close();
        return undefined;
      }
      await write(key, ann, entry.dimensions);
      if (entries.get(key) !== entry) {
        await ann.thread.close();
        return undefined;
      }
      return ann;
    } catch (error) {
      await ann.thread.close();
      throw error;
    }
  }

  async function addChunks(ann: Ann, documentIds: string[], source: AnnSource, dimensions: number) {
    const { ids, documentIds: owners, vectors } = await source.vectors(documentIds);
    if (ids.length === 0) return;
    if (vectors.length !== ids.length * dimensions) {
      throw new Error(
        `${ids.length} chunks but ${vectors.length / dimensions} vectors of ${dimensions} dimensions`,
      );
    }
    const first = ann.ids.length;
    const keys = new BigUint64Array(ids.length);
    for (let i = 0; i < ids.length; i++) keys[i] = BigInt(first + i);
    // The vectors' buffer moves to the thread: a copy when they are a view of a larger one.
    const own =
      vectors.byteOffset === 0 && vectors.byteLength === vectors.buffer.byteLength
        ? vectors
        : vectors.slice();
    await ann.thread.request({ op: 'add', keys, vectors: own });
    for (let i = 0; i < ids.length; i++) {
      ann.ids.push(ids[i]);
      const range = ann.documents.get(owners[i]);
      if (range) range.count++;
      else ann.documents.set(owners[i], { first: first + i, count: 1 });
    }
    ann.live += ids.length;
    ann.bytes = estimate(ann.ids.length, dimensions);
  }

  /** The index file, its ids and its description, each written aside and renamed into place, the description last. */
  async function write(key: string, ann: Ann, dimensions: number) {
    const paths = files(key);
    const tag = `${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const saved = await ann.thread.request({ op: 'save', path: `${paths.index}.${tag}` });
      const ids = ann.ids.encoded();
      writeDurably(`${paths.ids}.${tag}`, ids);
      const meta: Meta = {
        format: FORMAT,
        dimensions,
        quantization: settings.quantization,
        connectivity: settings.connectivity,
        expansionAdd: settings.expansionAdd,
        count: ann.ids.length,
        live: ann.live,
        indexBytes: saved.bytes,
        indexCrc: saved.crc,
        idsCrc: crc32(ids),
        documents: [...ann.documents].map(([id, r]) => [id, r.first, r.count]),
        builtAt: new Date().toISOString(),
      };
      const body = JSON.stringify(meta);
      writeDurably(`${paths.meta}.${tag}`, JSON.stringify({ body, crc: crc32(body) }));
      renameSync(`${paths.index}.${tag}`, paths.index);
      renameSync(`${paths.ids}.${tag}`, paths.ids);
      renameSync(`${paths.meta}.${tag}`, paths.meta);
    } catch (error) {
      // The index still serves from memory; the next start builds it again.
      log?.warn({ knowledgeBaseId: key, error: (error as Error).message }, 'vector index file not written');
      for (const file of Object.values(paths)) rmSync(`${file}.${tag}`, { force: true });
    }
  }

  /** Catches the index up with the knowledge base's documents (one catch-up at a time per index). */
  function catchUp(key: string, entry: Entry, ann: Ann, version: string, source: AnnSource) {
    if (ann.version === version) return ann.sync;
    ann.sync = ann.sync
      .catch(() => {})
      .then(async () => {
        if (ann.version === version) return;
        const now = await source.documents();
        const present = new Set(now.map((d) => d.id));
        const gone: bigint[] = [];
        for (const [id, range] of ann.documents) {
          if (present.has(id)) continue;
          for (let k = range.first; k < range.first + range.count; k++) {
            // Forgotten first: whatever happens next, a deleted chunk is never answered.
            if (!ann.ids.forget(k)) continue;
            gone.push(BigInt(k));
          }
          ann.documents.delete(id);
        }
        if (gone.length > 0) {
          await ann.thread.request({ op: 'remove', keys: BigUint64Array.from(gone) });
          ann.live -= gone.length;
          ann.changed += gone.length;
        }
        const added = now.filter((d) => !ann.documents.has(d.id));
        const before = ann.ids.length;
        for (const batch of batches(added, batchChunks))
          await addChunks(ann, batch, source, entry.dimensions);
        ann.changed += ann.ids.length - before;
        ann.version = version;
        if (ann.changed <= rebuildAfter * Math.max(ann.fileCount, 1) || entry.building) return;
        if (ann.bytes + estimate(ann.live, entry.dimensions) <= options.maxBytes) {
          // A fresh graph without the removed chunks, built beside this one, which answers meanwhile.
          startBuild(key, entry, source);
          return;
        }
        // No room for a second index: this one is written as it is (removed chunks stay as
        // tombstones), so a restart need not catch up again. Its searches wait for the write.
        ann.fileCount = ann.ids.length;
        ann.changed = 0;
        ann.sync = ann.sync.then(() => write(key, ann, entry.dimensions));
      });
    return ann.sync;
  }

  /**
   * The `topK` chunks closest to `query` (cosine), best first, in the knowledge base `key` of
   * `chunkCount` chunks at `version`. Throws AnnUnavailableError while its first build runs or when
   * it does not fit in the memory allowed.
   */
  async function search(
    key: string,
    version: string,
    base: { dimensions: number; chunkCount: number },
    source: AnnSource,
    query: number[],
    topK: number,
  ): Promise<VectorHit[]> {
    const { dimensions } = base;
    const needs = estimate(base.chunkCount, dimensions);
    if (needs > options.maxBytes) {
      throw new AnnUnavailableError(
        `This knowledge base is too large to search on this server: its index needs ${mib(needs)} MiB of the ` +
          `${mib(options.maxBytes)} MiB allowed (KNOWLEDGE_ANN_MEMORY_MB).`,
      );
    }
    if (query.length !== dimensions) {
      throw new VectorDimensionError(
        `The query has ${query.length} dimensions but the stored vectors have ${dimensions}`,
      );
    }
    let entry = entries.get(key);
    if (entry && entry.dimensions !== dimensions) {
      release(key);
      entry = undefined;
    }
    entry ??= open(key, dimensions, source);
    entries.delete(key);
    entries.set(key, entry);
    const ann = entry.ann ?? (await entry.ready);
    if (!ann)
      throw new AnnUnavailableError(
        "This knowledge base's search index is being built; search it again in a few minutes.",
      );
    await catchUp(key, entry, ann, version, source);
    const k = Math.min(Math.floor(topK), ann.live);
    if (!(k > 0)) return [];
    let found;
    try {
      found = await ann.thread.request({ op: 'search', query: Float32Array.from(query), k });
    } catch (error) {
      // Replaced by a rebuild while this search waited: the new index answers.
      if (entry.ann && entry.ann !== ann) return search(key, version, base, source, query, topK);
      throw error;
    }
    const hits: VectorHit[] = [];
    for (let i = 0; i < found.keys.length; i++) {
      const id = ann.ids.get(Number(found.keys[i]));
      if (id) hits.push({ id, score: 1 - found.distances[i] });
    }
    return hits;
  }

  return {
    search,

    /** Whether searches of `key` are answered by an index now (loaded, not being built for the first time). */
    ready(key: string) {
      return entries.get(key)?.ann !== undefined;
    },

    /** Lets go of a knowledge base's index in memory; its files stay (it is below the threshold again). */
    release,

    /** Drops a knowledge base's index and its files (the knowledge base was deleted). */
    forget(key: string) {
      release(key);
      for (const file of Object.values(files(key))) rmSync(file, { force: true });
    },

    /** Settles once the knowledge base's load, build, rebuild or write under way has (tests). */
    async settled(key: string) {
      for (;;) {
        const entry = entries.get(key);
        if (!entry) return;
        await entry.ready.catch(() => {});
        const sync = entry.ann?.sync;
        await sync?.catch(() => {});
        if (entry.building) await entry.building;
        else if (entry.ann?.sync === sync) return;
      }
    },

    /** Loads from a file and builds, since this index was made. */
    stats: () => ({ ...stats }),

    /** Stops every thread (the app closes). */
    async close() {
      const threads = [...entries.values()].flatMap((e) => (e.ann ? [e.ann.thread] : []));
      entries.clear();
      await Promise.all(threads.map((t) => t.close()));
    },
  };
}
export type AnnIndex = ReturnType<typeof createAnnIndex>;

const mib = (bytes: number) => formatNumber(Math.ceil(bytes / 2 ** 20));

/** Documents in groups of about `size` chunks (a document is never split). */
function* batches(documents: { id: string; chunkCount: number }[], size: number) {
  let batch: string[] = [];
  let chunks = 0;
  for (const d of documents) {
    batch.push(d.id);
    chunks += d.chunkCount;
    if (chunks >= size) {
      yield batch;
      batch = [];
      chunks = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

function writeDurably(file: string, data: string | Buffer) {
  writeFileSync(file, data);
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
