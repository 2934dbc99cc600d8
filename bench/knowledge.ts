// The built-in knowledge store as shipped: the real server (main.ts, ROLE=all: API and workers in one
// process) in a child process against an embedded PostgreSQL this bench starts, embeddings from the
// instant fake OpenAI-compatible model in this process (1,536 dimensions, as text-embedding-3-small).
//
// 1. Ingestion: documents sent through POST /api/knowledge-bases/:id/documents, taken by the server's
//    knowledge worker, cut into chunks, embedded through the fake model and stored: chunks and
//    documents per second from the first POST to the last document ready, with CPU per chunk read from
//    /proc for the server and for Postgres apart (this process, the fake model included, apart too).
// 2. Search: knowledge bases of 10,000, 40,000 and 100,000 chunks seeded straight into the database
//    (random unit vectors, one bulk INSERT per 2,000 rows), then searched one at a time through
//    POST /api/knowledge-bases/:id/search, which embeds the query with the fake model, scans the
//    in-memory index (modules/knowledge/vector-index.ts) and reads the hits' text. The first search
//    (which loads the vectors from Postgres) is reported apart from the warm ones, with the server's
//    RSS after it. The index alone (createVectorIndex in this process, memory budget raised so every
//    size stays loaded) is measured on the same vectors, to show what the scan itself costs.
// 3. Approximate index: a knowledge base of 1,000,000 chunks (BENCH_KNOWLEDGE_ANN_CHUNKS; 0 skips it)
//    seeded straight into the database with the fake model's vectors of generated passages, past
//    KNOWLEDGE_ANN_MIN_CHUNKS: the time the server takes to build its HNSW index (searches answer 503
//    meanwhile), warm searches through the route, recall@5 against exact search (computed here while
//    seeding), the server's memory, and after a restart of the server the first search, which loads
//    the index file from DATA_DIR (modules/knowledge/ann-index.ts).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@crewline/db';
import { fakeEmbedding, startFakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { decodeVectors } from '../apps/server/src/platform/llm/vector-codec';
import { createVectorIndex } from '../apps/server/src/modules/knowledge/vector-index';
import {
  childrenByParent,
  expectStatus,
  machineTicks,
  request,
  startServer,
  stopServer,
  ticksToMs,
  treeTicks,
  type Server,
} from './execution-throughput';
import { seededRandom } from '../apps/server/src/testing/seeded-random';

const resultFile = path.join(import.meta.dirname, 'results', 'knowledge.json');

const DIMENSIONS = 1536;
/** BENCH_KNOWLEDGE_DOCUMENTS narrows a run while investigating. */
const DOCUMENTS = Number(process.env.BENCH_KNOWLEDGE_DOCUMENTS) || 50;
/** Characters per document: about 40 chunks of the default 1,000 characters with 150 of overlap. */
const DOCUMENT_CHARS = 27_500;
/** Rounds of DOCUMENTS each, a knowledge base apiece; the median round is the headline. */
const INGESTION_ROUNDS = 3;
/**
 * Chunks per searched knowledge base (BENCH_KNOWLEDGE_SIZES, for example `10000`, narrows a run).
 * 40,000 is about what the index's former 256 MiB budget kept loaded at 1,536 dimensions (~43,000);
 * the server's default is now 1 GiB (KNOWLEDGE_SEARCH_MEMORY_MB), so 100,000 stays loaded too.
 */
const SEARCH_SIZES = (process.env.BENCH_KNOWLEDGE_SIZES?.split(',').map(Number) ?? [
  10_000, 40_000, 100_000,
]) as readonly number[];
const SEARCHES = 200;
/** Warm searches stop at SEARCHES or after this long, whichever comes first (a reload each is slow). */
const SEARCH_BUDGET_MS = 30_000;
/**
 * Searches before the measured ones, not counted (the route's code paths compile, statements plan):
 * SEARCH_WARMUP of them, or fewer once SEARCH_WARMUP_MS has passed.
 */
const SEARCH_WARMUP = 5;
const SEARCH_WARMUP_MS = 3_000;

/** The unmeasured searches before measured ones, as above. */
async function warmUp(search: () => Promise<unknown>) {
  const end = performance.now() + SEARCH_WARMUP_MS;
  for (let i = 0; i < SEARCH_WARMUP && performance.now() < end; i++) await search();
}

const TOP_K = 5;
const SEED_BATCH = 2_000;
const CHUNKS_PER_SEEDED_DOCUMENT = 1_000;
const INGEST_TIMEOUT_MS = 120_000;
/** Exact search's budget the README states sizes against. */
const P99_BUDGET_MS = 100;

/**
 * Chunks of the approximate index's knowledge base (BENCH_KNOWLEDGE_ANN_CHUNKS: 0 skips the phase, a
 * smaller figure tries it). The 1,000,000 needs about 8 GiB of database on disk, a few minutes
 * to seed, tens of minutes for the server to build on 2 cores, and about 3.5 GiB of server memory.
 */
const ANN_CHUNKS =
  process.env.BENCH_KNOWLEDGE_ANN_CHUNKS === undefined
    ? 1_000_000
    : Number(process.env.BENCH_KNOWLEDGE_ANN_CHUNKS);
/**
 * ef_search values tried after the main measurement, each a restart on the same index file
 * (BENCH_KNOWLEDGE_ANN_EF_SWEEP, e.g. `512,2048`; empty skips). The main one runs at the server's
 * default, or KNOWLEDGE_ANN_EF_SEARCH when the bench is given it.
 */
const ANN_EF_SWEEP = (process.env.BENCH_KNOWLEDGE_ANN_EF_SWEEP ?? '256,512,2048')
  .split(',')
  .filter(Boolean)
  .map(Number);
/**
 * Queries whose exact top 5 is computed while seeding, then asked through the route: 1,000 hits, so a
 * recall of 0.95 is known within about ±0.014 (two standard errors; 50 queries left ±0.03).
 */
const ANN_RECALL_QUERIES = 200;
const ANN_BUILD_TIMEOUT_MS = 3 * 60 * 60 * 1000;
/** What the issue asks of 1,000,000 chunks of 1,536 dimensions. */
const ANN_TARGETS = { searchP99Ms: 50, recallAt5: 0.95, loadSeconds: 10, memoryGiB: 4 };

const round = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

const VOCABULARY = (
  'invoice refund customer policy contract delivery warehouse payment account support ticket ' +
  'shipment order return warranty pricing discount subscription renewal onboarding training ' +
  'security password access report quarter revenue budget forecast supplier inventory audit ' +
  'compliance privacy employee holiday schedule meeting project milestone release feature bug'
).split(' ');

/** Prose of about `chars` characters: sentences of vocabulary words, paragraphs of a few sentences. */
function prose(random: () => number, chars: number) {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const words = Array.from(
      { length: 8 + Math.floor(random() * 12) },
      () => VOCABULARY[Math.floor(random() * VOCABULARY.length)],
    );
    const sentence = `${words[0][0].toUpperCase()}${words.join(' ').slice(1)}.`;
    const part = random() < 0.2 ? `${sentence}\n\n` : `${sentence} `;
    parts.push(part);
    length += part.length;
  }
  return parts.join('').trim();
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

function latencyStats(values: number[]) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

/** VmRSS and VmHWM (the peak) of a process, in MiB, from /proc. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: Math.round(kib('VmRSS') / 1024), peakRssMiB: Math.round(kib('VmHWM') / 1024) };
}

type Cpu = { node: number; postgres: number; bench: number; machineBusy: number };

function cpuNow(server: Server, postmasterPid: number): Cpu {
  const byParent = childrenByParent();
  const bench = process.cpuUsage();
  return {
    node: treeTicks(server.child.pid!, byParent).ticks,
    postgres: treeTicks(postmasterPid, byParent).ticks,
    bench: (bench.user + bench.system) / 1000,
    machineBusy: machineTicks().busy,
  };
}

/** CPU milliseconds of each part between two snapshots; `other` is the rest of the machine (other users). */
function cpuBetween(a: Cpu, b: Cpu) {
  const nodeMs = ticksToMs(b.node - a.node);
  const postgresMs = ticksToMs(b.postgres - a.postgres);
  const benchMs = b.bench - a.bench;
  const otherMs = Math.max(0, ticksToMs(b.machineBusy - a.machineBusy) - nodeMs - postgresMs - benchMs);
  return { nodeMs, postgresMs, benchMs, otherMs };
}

// ---------------------------------------------------------------------------------------------------

type Account = { base: string; token: string; organizationId: string };

async function prepareAccount(base: string, fakeUrl: string): Promise<Account> {
  const password = 'bench-password';
  const signup = await expectStatus(
    request(base, 'POST', '/api/auth/signup', {
      username: 'bench',
      email: 'bench@example.com',
      password,
      confirmPassword: password,
    }),
    201,
    'sign-up',
  );
  const token = signup.token as string;
  await expectStatus(
    request(
      base,
      'PUT',
      '/api/tools/configurations/openai_config',
      { config: { apiKey: 'sk-bench', baseUrl: fakeUrl, defaultModel: 'gpt-4o' } },
      token,
    ),
    200,
    'OpenAI connection',
  );
  return { base, token, organizationId: (signup.organization as { id: string }).id };
}

async function createKnowledgeBase(account: Account, name: string) {
  const base = await expectStatus(
    request(account.base, 'POST', '/api/knowledge-bases', { name }, account.token),
    201,
    'knowledge base',
  );
  return base.id as string;
}

/** 50 documents of about 40 chunks each, through the API, until the worker has made each ready. */
async function measureIngestion(
  account: Account,
  db: pg.Client,
  server: Server,
  postmasterPid: number,
  pass: number,
) {
  const knowledgeBaseId = await createKnowledgeBase(account, `Ingestion ${pass}`);
  const loadAverage1mAtStart = Math.round(os.loadavg()[0] * 100) / 100;
  const random = seededRandom(pass);
  const texts = Array.from({ length: DOCUMENTS }, () => prose(random, DOCUMENT_CHARS));
  const before = cpuNow(server, postmasterPid);
  const started = performance.now();
  for (const [i, content] of texts.entries()) {
    await expectStatus(
      request(
        account.base,
        'POST',
        `/api/knowledge-bases/${knowledgeBaseId}/documents`,
        { name: `document-${i + 1}.md`, mediaType: 'text/markdown', content },
        account.token,
      ),
      201,
      'document',
    );
  }
  const queuedMs = performance.now() - started;
  // Polled in Postgres every 50 ms: one small query, a negligible share of its CPU.
  let statuses: Record<string, number>;
  for (const deadline = started + INGEST_TIMEOUT_MS; ;) {
    const { rows } = await db.query<{ status: string; n: number; chunks: number }>(
      `SELECT status, count(*)::int AS n, coalesce(sum(chunk_count), 0)::int AS chunks
       FROM knowledge_documents WHERE knowledge_base_id = $1 GROUP BY status`,
      [knowledgeBaseId],
    );
    statuses = Object.fromEntries(rows.map((r) => [r.status, r.n]));
    if ((statuses.ready ?? 0) + (statuses.failed ?? 0) === DOCUMENTS) break;
    if (performance.now() > deadline) throw new Error(`ingestion unfinished: ${JSON.stringify(statuses)}`);
    await sleep(50);
  }
  const elapsedMs = performance.now() - started;
  const cpu = cpuBetween(before, cpuNow(server, postmasterPid));
  const {
    rows: [{ chunks }],
  } = await db.query<{ chunks: number }>(
    'SELECT count(*)::int AS chunks FROM knowledge_chunks WHERE knowledge_base_id = $1',
    [knowledgeBaseId],
  );
  const seconds = elapsedMs / 1000;
  const perChunk = (ms: number) => round(ms / chunks);
  return {
    loadAverage1mAtStart,
    documents: DOCUMENTS,
    chunks,
    documentStatuses: statuses,
    contentCharsPerDocument: DOCUMENT_CHARS,
    secondsToQueueAll: round(queuedMs / 1000),
    seconds: round(seconds),
    chunksPerSecond: round(chunks / seconds),
    documentsPerSecond: round(DOCUMENTS / seconds),
    cpuMsPerChunk: {
      node: perChunk(cpu.nodeMs),
      postgres: perChunk(cpu.postgresMs),
      benchProcessIncludingFakeModel: perChunk(cpu.benchMs),
    },
    cores: {
      node: round(cpu.nodeMs / 1000 / seconds),
      postgres: round(cpu.postgresMs / 1000 / seconds),
      benchProcess: round(cpu.benchMs / 1000 / seconds),
      // Everything else on the machine: work of other users competing for the same 2 cores.
      other: round(cpu.otherMs / 1000 / seconds),
    },
  };
}

/** Cores each part kept busy over `seconds` (the rest of the machine competes for the same cores). */
function coresBusy(cpu: ReturnType<typeof cpuBetween>, seconds: number) {
  const cores = (ms: number) => round(ms / 1000 / seconds);
  return {
    node: cores(cpu.nodeMs),
    postgres: cores(cpu.postgresMs),
    benchProcess: cores(cpu.benchMs),
    other: cores(cpu.otherMs),
  };
}

/** The ready documents a seeded knowledge base of `size` chunks is cut into (1,000 chunks each), in order. */
async function seedDocuments(db: pg.Client, account: Account, knowledgeBaseId: string, size: number) {
  const documents = Math.ceil(size / CHUNKS_PER_SEEDED_DOCUMENT);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO knowledge_documents
       (knowledge_base_id, organization_id, name, media_type, size_bytes, content, status, chunk_count)
     SELECT $1, $2, 'seeded-' || n || '.txt', 'text/plain', 0, '', 'ready',
       least($3::int, $4::int - (n - 1) * $3::int)
     FROM generate_series(1, $5::int) AS n ORDER BY n RETURNING id`,
    [knowledgeBaseId, account.organizationId, CHUNKS_PER_SEEDED_DOCUMENT, size, documents],
  );
  return rows;
}

/**
 * A knowledge base of `size` chunks written straight into the tables as ingestion leaves them: ready
 * documents of 1,000 chunks, each chunk ~1,000 characters of text and a random unit vector, and the
 * knowledge base's dimensions and version set. Returns its id and the time the seeding took.
 */
async function seedKnowledgeBase(account: Account, db: pg.Client, size: number) {
  const knowledgeBaseId = await createKnowledgeBase(account, `Search ${size}`);
  const random = seededRandom(size);
  const started = performance.now();
  const docs = await seedDocuments(db, account, knowledgeBaseId, size);
  // A pool of texts rather than 100,000 made one by one; the text's length is what the table holds.
  const texts = Array.from({ length: 64 }, () => prose(random, 1000));
  for (let start = 0; start < size; start += SEED_BATCH) {
    const count = Math.min(SEED_BATCH, size - start);
    const vectors = new Float32Array(count * DIMENSIONS);
    for (let i = 0; i < vectors.length; i++) vectors[i] = random() * 2 - 1;
    for (let r = 0; r < count; r++) {
      const row = vectors.subarray(r * DIMENSIONS, (r + 1) * DIMENSIONS);
      let sum = 0;
      for (const x of row) sum += x * x;
      const scale = 1 / Math.sqrt(sum);
      for (let d = 0; d < DIMENSIONS; d++) row[d] *= scale;
    }
    // The batch's vectors as one parameter (node-postgres sends a Buffer in binary), cut into rows in
    // SQL: no hex text to build here or parse there.
    await db.query(
      `INSERT INTO knowledge_chunks
         (document_id, knowledge_base_id, organization_id, chunk_index, text, embedding)
       SELECT ($1::uuid[])[(($6::int + i) / $7::int) + 1], $2, $3, ($6::int + i) % $7::int,
         ($4::text[])[i % cardinality($4::text[]) + 1],
         substring($5::bytea from i * $8::int + 1 for $8::int)
       FROM generate_series(0, $9::int - 1) AS i`,
      [
        docs.map((d) => d.id),
        knowledgeBaseId,
        account.organizationId,
        texts,
        Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength),
        start,
        CHUNKS_PER_SEEDED_DOCUMENT,
        DIMENSIONS * 4,
        count,
      ],
    );
  }
  await db.query('UPDATE knowledge_bases SET dimensions = $2, version = version + 1 WHERE id = $1', [
    knowledgeBaseId,
    DIMENSIONS,
  ]);
  // As a running system is a minute after such a load: autovacuum has set the visibility map and the
  // planner's statistics (as bench/api-latency.ts does).
  await db.query('VACUUM ANALYZE knowledge_chunks');
  await db.query('VACUUM ANALYZE knowledge_documents');
  return { knowledgeBaseId, seedSeconds: round((performance.now() - started) / 1000) };
}

async function searchOnce(account: Account, knowledgeBaseId: string, query: string) {
  const started = performance.now();
  const body = await expectStatus(
    request(
      account.base,
      'POST',
      `/api/knowledge-bases/${knowledgeBaseId}/search`,
      { query, topK: TOP_K },
      account.token,
    ),
    200,
    'search',
  );
  const ms = performance.now() - started;
  if ((body.hits as unknown[]).length !== TOP_K) throw new Error(`search answered ${JSON.stringify(body)}`);
  return ms;
}

/** Through the route: the first search (loads the vectors), then warm ones one at a time. */
async function measureRouteSearch(
  account: Account,
  knowledgeBaseId: string,
  server: Server,
  postmasterPid: number,
) {
  const random = seededRandom(7);
  const query = () =>
    Array.from({ length: 6 }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(' ');
  const memoryBefore = memoryOf(server.child.pid!);
  const firstMs = await searchOnce(account, knowledgeBaseId, query());
  const memoryAfterFirst = memoryOf(server.child.pid!);
  await warmUp(() => searchOnce(account, knowledgeBaseId, query()));
  const latencies: number[] = [];
  const before = cpuNow(server, postmasterPid);
  const windowStart = performance.now();
  const deadline = performance.now() + SEARCH_BUDGET_MS;
  while (latencies.length < SEARCHES && performance.now() < deadline) {
    latencies.push(await searchOnce(account, knowledgeBaseId, query()));
  }
  const cpu = cpuBetween(before, cpuNow(server, postmasterPid));
  const seconds = (performance.now() - windowStart) / 1000;
  const warm = latencyStats(latencies)!;
  return {
    firstSearchMs: round(firstMs),
    warmMs: warm,
    stoppedByTimeBudget: latencies.length < SEARCHES,
    // Cores kept busy during the warm searches: the server, Postgres, this process, and the rest of
    // the machine (other users), which competes for the same cores and shows in the tail.
    coresDuringWarmSearches: coresBusy(cpu, seconds),
    // A warm median near the first search's time: every search loaded the vectors again.
    reloadsEverySearch: warm.p50 > firstMs / 2,
    serverMemoryMiB: {
      beforeFirstSearch: memoryBefore.rssMiB,
      afterFirstSearch: memoryAfterFirst.rssMiB,
      afterWarmSearches: memoryOf(server.child.pid!).rssMiB,
      peak: memoryOf(server.child.pid!).peakRssMiB,
    },
  };
}

/**
 * The index alone, in this process, on the same rows: its load (the repository's query and decode
 * done here with a plain client) and scans of random unit queries, with a memory budget of 1 GiB so
 * that 100,000 × 1,536 float32 (586 MiB) stays loaded. What a search would cost with a larger budget.
 */
async function measureIndexOnly(
  db: pg.Client,
  knowledgeBaseId: string,
  size: number,
  server: Server,
  postmasterPid: number,
) {
  const index = createVectorIndex({ maxBytes: 2 ** 30 });
  const rssBefore = process.memoryUsage().rss;
  const random = seededRandom(11);
  const query = () => {
    const v = Array.from({ length: DIMENSIONS }, () => random() * 2 - 1);
    return v;
  };
  let loadMs = 0;
  const load = async () => {
    const started = performance.now();
    const { rows } = await db.query<{ id: string; embedding: Buffer }>(
      'SELECT id, embedding FROM knowledge_chunks WHERE knowledge_base_id = $1',
      [knowledgeBaseId],
    );
    const set = {
      ids: rows.map((r) => r.id),
      vectors: decodeVectors(
        rows.map((r) => r.embedding),
        DIMENSIONS,
      ),
      dimensions: DIMENSIONS,
    };
    loadMs = performance.now() - started;
    return set;
  };
  const firstStarted = performance.now();
  await index.search(knowledgeBaseId, '1', load, query(), TOP_K);
  const firstMs = performance.now() - firstStarted;
  const rssAfterLoad = process.memoryUsage().rss;
  // As for the route: unmeasured first scans (the load's garbage collected, the scan compiled).
  for (let i = 0; i < SEARCH_WARMUP; i++) await index.search(knowledgeBaseId, '1', load, query(), TOP_K);
  const latencies: number[] = [];
  const before = cpuNow(server, postmasterPid);
  const windowStart = performance.now();
  for (let i = 0; i < SEARCHES; i++) {
    const q = query();
    const started = performance.now();
    await index.search(knowledgeBaseId, '1', load, q, TOP_K);
    latencies.push(performance.now() - started);
  }
  const cpu = cpuBetween(before, cpuNow(server, postmasterPid));
  const seconds = (performance.now() - windowStart) / 1000;
  return {
    chunks: size,
    maxBytes: 2 ** 30,
    // Only this process should be busy; the rest of the machine (other users) shows in the tail.
    coresDuringScans: {
      benchProcess: round(cpu.benchMs / 1000 / seconds),
      other: round(cpu.otherMs / 1000 / seconds),
    },
    loadFromPostgresMs: round(loadMs),
    firstSearchMs: round(firstMs),
    warmScanMs: latencyStats(latencies),
    rssGrowthMiB: mib(rssAfterLoad - rssBefore),
  };
}

// ---------------------------------------------------------------------------------------------------
// 3. The approximate index.

/**
 * Passages as a large knowledge base holds them: each on one of 2,000 topics (mostly its 100 words,
 * some of a 50,000-word vocabulary), embedded by the fake model (a bag of hashed words). Its vectors
 * have structure, as real embeddings do; uniformly random vectors would have none (no index finds
 * neighbours among points that all are about equally far apart), and are not what a model answers.
 */
function passages(seed: number) {
  const random = seededRandom(seed);
  const VOCABULARY_SIZE = 50_000;
  const topics = Array.from({ length: 2000 }, () =>
    Array.from({ length: 100 }, () => Math.floor(random() ** 2 * VOCABULARY_SIZE)),
  );
  return (words: number) => {
    const topic = topics[Math.floor(random() * topics.length)];
    const out: string[] = [];
    for (let i = 0; i < words; i++) {
      out.push(
        `w${random() < 0.7 ? topic[Math.floor(random() * topic.length)] : Math.floor(random() ** 3 * VOCABULARY_SIZE)}`,
      );
    }
    return out.join(' ');
  };
}

/** The best 5 exact scores of each query, kept as rows stream past (a row's vector is sparse). */
function exactTopFive(queries: number[][]) {
  const best = queries.map(() => [-Infinity, -Infinity, -Infinity, -Infinity, -Infinity]);
  return {
    best,
    add(vector: number[]) {
      const nonZero: number[] = [];
      for (let d = 0; d < vector.length; d++) if (vector[d] !== 0) nonZero.push(d);
      for (let q = 0; q < queries.length; q++) {
        const query = queries[q];
        let score = 0;
        for (const d of nonZero) score += vector[d] * query[d];
        const top = best[q];
        if (score <= top[4]) continue;
        let i = 4;
        while (i > 0 && top[i - 1] < score) {
          top[i] = top[i - 1];
          i--;
        }
        top[i] = score;
      }
    },
  };
}

/** The knowledge base of `size` chunks, seeded as seedKnowledgeBase does but with the fake model's vectors. */
async function seedApproximate(account: Account, db: pg.Client, size: number, recallQueries: string[]) {
  const knowledgeBaseId = await createKnowledgeBase(account, `Approximate ${size}`);
  const passage = passages(size);
  const exact = exactTopFive(recallQueries.map((q) => fakeEmbedding(q, DIMENSIONS)));
  const started = performance.now();
  const docs = await seedDocuments(db, account, knowledgeBaseId, size);
  for (let start = 0; start < size; start += SEED_BATCH) {
    const count = Math.min(SEED_BATCH, size - start);
    const texts: string[] = [];
    const vectors = new Float32Array(count * DIMENSIONS);
    for (let r = 0; r < count; r++) {
      const text = passage(120);
      const vector = fakeEmbedding(text, DIMENSIONS);
      texts.push(text);
      vectors.set(vector, r * DIMENSIONS);
      exact.add(vector);
    }
    await db.query(
      `INSERT INTO knowledge_chunks
         (document_id, knowledge_base_id, organization_id, chunk_index, text, embedding)
       SELECT ($1::uuid[])[(($5::int + i) / $6::int) + 1], $2, $3, ($5::int + i) % $6::int,
         ($7::text[])[i + 1],
         substring($4::bytea from i * $8::int + 1 for $8::int)
       FROM generate_series(0, $9::int - 1) AS i`,
      [
        docs.map((d) => d.id),
        knowledgeBaseId,
        account.organizationId,
        Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength),
        start,
        CHUNKS_PER_SEEDED_DOCUMENT,
        texts,
        DIMENSIONS * 4,
        count,
      ],
    );
    if ((start / SEED_BATCH) % 50 === 49) console.log(`  seeded ${start + count} chunks`);
  }
  await db.query('UPDATE knowledge_bases SET dimensions = $2, version = version + 1 WHERE id = $1', [
    knowledgeBaseId,
    DIMENSIONS,
  ]);
  await db.query('VACUUM ANALYZE knowledge_chunks');
  await db.query('VACUUM ANALYZE knowledge_documents');
  return { knowledgeBaseId, seedSeconds: round((performance.now() - started) / 1000), exactBest: exact.best };
}

async function searchRoute(account: Account, knowledgeBaseId: string, query: string) {
  const started = performance.now();
  const res = await request(
    account.base,
    'POST',
    `/api/knowledge-bases/${knowledgeBaseId}/search`,
    { query, topK: TOP_K },
    account.token,
  );
  return { res, ms: performance.now() - started };
}

/** The server's log lines about the index (modules/knowledge/ann-index.ts logs its builds and loads). */
function indexLog(server: Server, message: string) {
  return readFileSync(server.logFile, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; seconds?: number; ms?: number; chunks?: number };
        return entry.msg === message ? [entry] : [];
      } catch {
        return [];
      }
    });
}

async function measureApproximate(
  account: Account,
  db: pg.Client,
  servers: { current: Server; restart(extraEnv?: NodeJS.ProcessEnv): Promise<Server> },
  postmasterPid: number,
  size: number,
) {
  const query = passages(99);
  await servers.restart();
  const recallQueries = Array.from({ length: ANN_RECALL_QUERIES }, (_, i) => query(i % 2 ? 8 : 40));
  console.log(`approximate index over ${size} chunks: seeding`);
  const { knowledgeBaseId, seedSeconds, exactBest } = await seedApproximate(account, db, size, recallQueries);
  console.log(`  seeded in ${seedSeconds} s; the server builds its index`);

  // The first search starts the build; until it is done searches answer 503 (the exact scan's memory
  // cannot hold this many vectors).
  const buildStarted = performance.now();
  let refusedWhileBuilding = 0;
  for (;;) {
    const { res } = await searchRoute(account, knowledgeBaseId, query(8));
    if (res.status === 200) break;
    if (res.status !== 503)
      throw new Error(`search while building: ${res.status} ${JSON.stringify(res.body)}`);
    refusedWhileBuilding++;
    if (performance.now() - buildStarted > ANN_BUILD_TIMEOUT_MS)
      throw new Error('the index was not built in time');
    await sleep(2000);
  }
  const buildSeconds = round((performance.now() - buildStarted) / 1000);
  const built = indexLog(servers.current, 'vector index built').at(-1);
  const memoryAfterBuild = memoryOf(servers.current.child.pid!);
  console.log(
    `  built in ${buildSeconds} s (server: ${built?.seconds} s), server RSS ${memoryAfterBuild.rssMiB} MiB, peak ${memoryAfterBuild.peakRssMiB} MiB`,
  );

  await warmUp(() => searchRoute(account, knowledgeBaseId, query(8)));
  const latencies: number[] = [];
  const server = servers.current;
  const before = cpuNow(server, postmasterPid);
  const windowStart = performance.now();
  const deadline = performance.now() + SEARCH_BUDGET_MS;
  while (latencies.length < SEARCHES && performance.now() < deadline) {
    const { res, ms } = await searchRoute(account, knowledgeBaseId, query(latencies.length % 2 ? 8 : 40));
    if (res.status !== 200) throw new Error(`search: ${res.status} ${JSON.stringify(res.body)}`);
    latencies.push(ms);
  }
  const cpu = cpuBetween(before, cpuNow(server, postmasterPid));
  const seconds = (performance.now() - windowStart) / 1000;
  const warm = latencyStats(latencies)!;

  // Recall@5: a hit counts when its score reaches the exact fifth best (ties are either chunk; the
  // route's scores are exact, rounded to 4 decimals).
  let found = 0;
  for (const [i, q] of recallQueries.entries()) {
    const { res } = await searchRoute(account, knowledgeBaseId, q);
    const hits = (res.body.hits ?? []) as { score: number }[];
    found += hits.filter((hit) => hit.score >= exactBest[i][TOP_K - 1] - 1e-4).length;
  }
  const recallAt5 = Math.round((found / (ANN_RECALL_QUERIES * TOP_K)) * 1000) / 1000;
  console.log(
    `  warm p50 ${warm.p50} ms, p99 ${warm.p99} ms (${warm.count} searches); recall@5 ${recallAt5} over ${ANN_RECALL_QUERIES} queries`,
  );

  // A restart: the new process reads the index from DATA_DIR on its first search of it.
  const restarted = await servers.restart();
  const memoryBeforeLoad = memoryOf(restarted.child.pid!);
  const first = await searchRoute(account, knowledgeBaseId, query(8));
  if (first.res.status !== 200) throw new Error(`first search after restart: ${first.res.status}`);
  const loaded = indexLog(restarted, 'vector index loaded').at(-1);
  const rebuilt = indexLog(restarted, 'vector index built').length > 0;
  const memoryAfterLoad = memoryOf(restarted.child.pid!);
  const afterRestart: number[] = [];
  for (let i = 0; i < 50; i++) afterRestart.push((await searchRoute(account, knowledgeBaseId, query(8))).ms);
  console.log(
    `  after a restart: first search ${round(first.ms)} ms (index loaded in ${loaded?.ms} ms${rebuilt ? ', REBUILT' : ''}), ` +
      `server RSS ${memoryAfterLoad.rssMiB} MiB`,
  );
  const indexDir = path.join(path.dirname(restarted.logFile), `${restarted.role}-0`, 'knowledge-index');
  const indexFileMiB = existsSync(indexDir)
    ? mib(statSync(path.join(indexDir, `${knowledgeBaseId}.usearch`)).size)
    : null;
  const restartedPeakMiB = memoryOf(restarted.child.pid!).peakRssMiB;

  // ef_search changes at a start without a rebuild: the same index at other values, to show the trade.
  const efSearchSweep = [];
  for (const efSearch of ANN_EF_SWEEP) {
    const swept = await servers.restart({ KNOWLEDGE_ANN_EF_SEARCH: String(efSearch) });
    const load = await searchRoute(account, knowledgeBaseId, query(8));
    if (load.res.status !== 200) throw new Error(`search at ef_search ${efSearch}: ${load.res.status}`);
    // Warmed as the main measurement is: a fresh process's first searches after the load touch the
    // index's memory for the first time (ef_search 512 once gave p50 19 ms, p99 61 ms without this).
    await warmUp(() => searchRoute(account, knowledgeBaseId, query(8)));
    const times: number[] = [];
    for (
      const end = performance.now() + SEARCH_BUDGET_MS / 2;
      times.length < 100 && performance.now() < end;
    ) {
      times.push((await searchRoute(account, knowledgeBaseId, query(times.length % 2 ? 8 : 40))).ms);
    }
    let hits = 0;
    for (const [i, q] of recallQueries.entries()) {
      const { res } = await searchRoute(account, knowledgeBaseId, q);
      hits += ((res.body.hits ?? []) as { score: number }[]).filter(
        (hit) => hit.score >= exactBest[i][TOP_K - 1] - 1e-4,
      ).length;
    }
    const entry = {
      efSearch,
      warmMs: latencyStats(times),
      recallAt5: Math.round((hits / (ANN_RECALL_QUERIES * TOP_K)) * 1000) / 1000,
      rebuilt: indexLog(swept, 'vector index built').length > 0,
    };
    efSearchSweep.push(entry);
    console.log(
      `  ef_search ${efSearch}: warm p50 ${entry.warmMs?.p50} ms, p99 ${entry.warmMs?.p99} ms; recall@5 ${entry.recallAt5}`,
    );
  }

  await expectStatus(
    request(account.base, 'DELETE', `/api/knowledge-bases/${knowledgeBaseId}`, undefined, account.token),
    204,
    'delete knowledge base',
  );
  return {
    chunks: size,
    dimensions: DIMENSIONS,
    seedSeconds,
    build: {
      secondsUntilSearchable: buildSeconds,
      serverBuildSeconds: built?.seconds ?? null,
      searchesRefusedWhileBuilding: refusedWhileBuilding,
      serverMemoryMiB: memoryAfterBuild,
      indexFileMiB,
    },
    warmMs: warm,
    stoppedByTimeBudget: latencies.length < SEARCHES,
    coresDuringWarmSearches: coresBusy(cpu, seconds),
    recallAt5,
    recallQueries: ANN_RECALL_QUERIES,
    afterRestart: {
      firstSearchMs: round(first.ms),
      indexLoadMs: loaded?.ms ?? null,
      rebuilt,
      nextSearchesMs: latencyStats(afterRestart),
      serverMemoryMiB: {
        beforeFirstSearch: memoryBeforeLoad.rssMiB,
        afterLoad: memoryAfterLoad.rssMiB,
        // The restarted process has searched nothing else: its peak is what the index costs.
        peak: restartedPeakMiB,
      },
    },
    targets: ANN_TARGETS,
    meetsTargets:
      warm.p99 <= ANN_TARGETS.searchP99Ms &&
      recallAt5 >= ANN_TARGETS.recallAt5 &&
      (loaded?.ms ?? Infinity) <= ANN_TARGETS.loadSeconds * 1000 &&
      restartedPeakMiB <= ANN_TARGETS.memoryGiB * 1024,
    efSearchSweep,
  };
}

// ---------------------------------------------------------------------------------------------------
// The previous result, kept beside the new one (its headline figures).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an older result file may have another shape
type Loose = any;

function readPrevious() {
  if (!existsSync(resultFile)) return null;
  let old: Loose;
  try {
    old = JSON.parse(readFileSync(resultFile, 'utf8'));
  } catch {
    return null;
  }
  return {
    at: old.at ?? null,
    loadAverage1m: old.machine?.loadAverage1m ?? null,
    ingestion: old.ingestion
      ? {
          chunksPerSecond: old.ingestion.chunksPerSecond,
          documentsPerSecond: old.ingestion.documentsPerSecond,
          cpuMsPerChunk: old.ingestion.cpuMsPerChunk,
        }
      : null,
    search: Object.fromEntries(
      Object.entries((old.search ?? {}) as Record<string, Loose>).map(([key, s]) => [
        key,
        {
          firstSearchMs: s.route?.firstSearchMs ?? null,
          warmP50Ms: s.route?.warmMs?.p50 ?? null,
          warmP99Ms: s.route?.warmMs?.p99 ?? null,
          indexOnlyWarmP99Ms: s.indexOnly?.warmScanMs?.p99 ?? null,
        },
      ]),
    ),
  };
}

export async function runKnowledge() {
  const previous = readPrevious();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-knowledge-'));
  // When run as root the embedded Postgres runs as the "postgres" user, which must enter the folder.
  chmodSync(dataDir, 0o755);
  const cleanups: (() => Promise<unknown>)[] = [
    () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
  ];
  const started = performance.now();
  try {
    const pgStarted = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'cluster'),
      ephemeral: true,
    });
    cleanups.push(() => pgStarted.stop());
    const postmasterPid = Number(
      readFileSync(path.join(dataDir, 'cluster', 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const fake = await startFakeLlmServer();
    cleanups.push(() => fake.close());
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: pgStarted.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      // The fake model listens on loopback, which egress refuses unless allowed; only its port is.
      EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
      ...(process.env.KNOWLEDGE_ANN_EF_SEARCH
        ? { KNOWLEDGE_ANN_EF_SEARCH: process.env.KNOWLEDGE_ANN_EF_SEARCH }
        : {}),
    };
    // The exact scan at every size of phase 2 (100,000 would otherwise be past the threshold); the
    // approximate phase restarts the server as shipped.
    const exactEnv = { ...env, KNOWLEDGE_ANN_MIN_CHUNKS: String(1_000_000_000) };
    let server = await startServer('all', exactEnv, dataDir, 0);
    cleanups.push(() => stopServer(server));
    // Ctrl-C or a crash of the bench: the server does not outlive it.
    const killServer = () => server.child.kill('SIGKILL');
    process.once('exit', killServer);
    cleanups.push(async () => process.off('exit', killServer));
    const db = new pg.Client({ connectionString: pgStarted.url });
    db.on('error', () => {});
    await db.connect();
    cleanups.push(() => db.end());

    const account = await prepareAccount(server.url!, fake.url);
    console.log(`ingestion: ${DOCUMENTS} documents of ~${DOCUMENT_CHARS} characters`);
    const rounds: Awaited<ReturnType<typeof measureIngestion>>[] = [];
    for (let pass = 1; pass <= INGESTION_ROUNDS; pass++) {
      const r = await measureIngestion(account, db, server, postmasterPid, pass);
      rounds.push(r);
      console.log(
        `  round ${pass}: ${r.chunks} chunks in ${r.seconds} s: ${r.chunksPerSecond} chunks/s, ` +
          `${r.documentsPerSecond} documents/s; CPU/chunk Node ${r.cpuMsPerChunk.node} ms, ` +
          `Postgres ${r.cpuMsPerChunk.postgres} ms, bench+fake ${r.cpuMsPerChunk.benchProcessIncludingFakeModel} ms`,
      );
      fake.reset();
    }
    // The median round by throughput, whole (its CPU figures with it).
    const median = [...rounds].sort((a, b) => a.chunksPerSecond - b.chunksPerSecond)[
      Math.floor(rounds.length / 2)
    ];
    const ingestion = {
      chunksPerSecond: median.chunksPerSecond,
      documentsPerSecond: median.documentsPerSecond,
      cpuMsPerChunk: median.cpuMsPerChunk,
      rounds,
    };

    const search: Record<string, unknown> = {};
    const table: string[][] = [];
    for (const size of SEARCH_SIZES) {
      const { knowledgeBaseId, seedSeconds } = await seedKnowledgeBase(account, db, size);
      const loadAverage1mAtStart = round(os.loadavg()[0]);
      console.log(`search over ${size} chunks (seeded in ${seedSeconds} s)`);
      const route = await measureRouteSearch(account, knowledgeBaseId, server, postmasterPid);
      console.log(
        `  route: first ${route.firstSearchMs} ms, warm p50 ${route.warmMs.p50} ms, p99 ${route.warmMs.p99} ms ` +
          `(${route.warmMs.count} searches), server RSS ${route.serverMemoryMiB.afterFirstSearch} MiB`,
      );
      const indexOnly = await measureIndexOnly(db, knowledgeBaseId, size, server, postmasterPid);
      console.log(
        `  index only: load ${indexOnly.loadFromPostgresMs} ms, warm p50 ${indexOnly.warmScanMs?.p50} ms, ` +
          `p99 ${indexOnly.warmScanMs?.p99} ms`,
      );
      search[`chunks_${size}`] = {
        chunks: size,
        dimensions: DIMENSIONS,
        vectorMiB: mib(size * DIMENSIONS * 4),
        seedSeconds,
        loadAverage1mAtStart,
        route,
        indexOnly,
      };
      table.push([
        String(size),
        String(route.firstSearchMs),
        String(route.warmMs.p50),
        String(route.warmMs.p99),
        String(route.warmMs.count),
        route.reloadsEverySearch ? 'yes' : 'no',
        String(route.serverMemoryMiB.afterFirstSearch),
        String(indexOnly.warmScanMs?.p50),
        String(indexOnly.warmScanMs?.p99),
        String(route.coresDuringWarmSearches.other),
        String(indexOnly.coresDuringScans.other),
      ]);
      // Its vectors leave the server's index and the table before the next size.
      await expectStatus(
        request(account.base, 'DELETE', `/api/knowledge-bases/${knowledgeBaseId}`, undefined, account.token),
        204,
        'delete knowledge base',
      );
    }
    let restarts = 0;
    const approximate =
      ANN_CHUNKS > 0
        ? await measureApproximate(
            account,
            db,
            {
              get current() {
                return server;
              },
              // As shipped, in the same DATA_DIR (role and index), so a new process finds the index file.
              async restart(extraEnv = {}) {
                await stopServer(server);
                // Its log aside: the new process's address is read from a log of its own.
                renameSync(server.logFile, `${server.logFile}.${++restarts}`);
                server = await startServer('all', { ...env, ...extraEnv }, dataDir, 0);
                account.base = server.url!;
                return server;
              },
            },
            postmasterPid,
            ANN_CHUNKS,
          )
        : null;

    const header = [
      'chunks',
      'first ms',
      'warm p50',
      'warm p99',
      'searches',
      'reloads',
      'RSS MiB',
      'index p50',
      'index p99',
      'other cores (route)',
      'other cores (index)',
    ];
    const rows = [header, ...table];
    const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    console.log('');
    for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
    if (previous) console.log(`previous (${previous.at}):`, JSON.stringify(previous.search));

    const underBudget = SEARCH_SIZES.filter((size) => {
      const s = search[`chunks_${size}`] as { route: { warmMs: { p99: number } } } | undefined;
      return s && s.route.warmMs.p99 < P99_BUDGET_MS;
    });
    return {
      server:
        'node --max-semi-space-size=8 --import tsx apps/server/src/main.ts, ROLE=all (API and workers in one process), default log level (info, to a file)',
      database:
        'one embedded PostgreSQL cluster started by the bench (ephemeral: fsync, synchronous_commit and full_page_writes off)',
      fakeModel: `fake OpenAI-compatible server in the bench process, instant, ${DIMENSIONS}-dimension embeddings`,
      method: {
        ingestion:
          'documents POSTed one after another through /api/knowledge-bases/:id/documents; timed from the first POST ' +
          'until every document is ready (polled in Postgres every 50 ms); the server’s knowledge worker (default ' +
          'concurrency) chunks, embeds through the fake model over HTTP and stores. CPU from /proc over that window: ' +
          'node = the server process, postgres = the postmaster and all its children, benchProcess = this process ' +
          '(the clients and the fake model, which serialises the vectors as JSON), not the product.',
        search:
          `POST /api/knowledge-bases/:id/search (topK ${TOP_K}), one at a time: query embedding through the fake ` +
          'model, the in-memory exact index, the hits’ text from Postgres. Chunks seeded straight into the tables ' +
          `(random unit vectors, ~1,000-character texts, ${CHUNKS_PER_SEEDED_DOCUMENT} chunks a document). firstSearchMs ` +
          `loads the vectors; then ${SEARCH_WARMUP} unmeasured searches (at most ${SEARCH_WARMUP_MS / 1000} s), then up to ${SEARCHES} measured or ` +
          `${SEARCH_BUDGET_MS / 1000} s, whichever first. indexOnly: createVectorIndex in the bench process with a ` +
          `1 GiB budget on the same rows, random unit queries, ${SEARCH_WARMUP} unmeasured then ${SEARCHES} measured: the scan alone. ` +
          'The server runs with KNOWLEDGE_ANN_MIN_CHUNKS above every size: these are the exact scan’s figures.',
        approximate:
          `${ANN_CHUNKS} chunks seeded straight into the tables (documents of ${CHUNKS_PER_SEEDED_DOCUMENT}), each the fake ` +
          'model’s embedding of a generated 120-word passage on one of 2,000 topics; the server restarted as shipped ' +
          '(KNOWLEDGE_ANN_MIN_CHUNKS and KNOWLEDGE_ANN_MEMORY_MB at their defaults). Build: from the first search ' +
          'until one answers 200 (503 meanwhile), polled every 2 s. Warm: as for exact search, queries of 8 and 40 ' +
          `words alternating. Recall@5: ${ANN_RECALL_QUERIES} queries whose exact top 5 was computed while seeding; a hit ` +
          'counts when its score reaches the exact fifth best (ties are either chunk). Restart: the server stopped and ' +
          'started on the same DATA_DIR; the first search loads the index file (its load time from the server log). ' +
          `efSearchSweep: restarted again with KNOWLEDGE_ANN_EF_SEARCH at ${ANN_EF_SWEEP.join(', ') || 'none'} (the same file), ` +
          'up to 100 warm searches and the recall queries each.',
      },
      ingestion,
      search,
      approximate,
      exactSearchUnder100msP99UpTo: underBudget.length > 0 ? Math.max(...underBudget) : null,
      totalSeconds: round((performance.now() - started) / 1000),
      previous,
    };
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error: unknown) => console.error('cleanup failed:', error));
  }
}
