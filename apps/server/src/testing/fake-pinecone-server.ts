import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Pinecone API on real HTTP servers on 127.0.0.1, speaking the REST protocol Pinecone's
 * clients use, for what the Vector Store tool needs:
 * - the control plane (`url`): `GET /indexes/{name}` describes an index (its `host`, without a scheme
 *   as Pinecone gives it, its `dimension` and `metric`), `GET /indexes` lists them;
 * - each index's data plane on a host (server) of its own: `POST /query` with `vector` or `id`, `topK`,
 *   `includeMetadata`, `includeValues`, `namespace`, answering `matches` sorted by score.
 * Every request must carry the `Api-Key` header with the project's key, else 401 in Pinecone's shape;
 * what Pinecone requires is required (topK in 1..10000, exactly one of vector and id, JSON), and a
 * vector of another length than the index's is a 400 in Pinecone's words. Tests never reach Pinecone.
 */

type Json = Record<string, unknown>;
export type FakePineconeVector = { id: string; values: number[]; metadata?: Json };
export type FakePineconeIndexInput = {
  name: string;
  dimension: number;
  metric?: 'cosine' | 'dotproduct' | 'euclidean';
  /** Records per namespace ('' is the default namespace). */
  vectors?: FakePineconeVector[];
  namespaces?: Record<string, FakePineconeVector[]>;
};
export type FakePineconeRequest = {
  plane: 'control' | 'data';
  /** The index whose host was called (data plane). */
  index?: string;
  method: string;
  path: string;
  /** The Api-Key header as received (tests check whose key reached Pinecone). */
  apiKey: string | undefined;
  apiVersion: string | undefined;
  body: unknown;
};
export type FakePineconeServer = Awaited<ReturnType<typeof startFakePineconeServer>>;

type Index = {
  name: string;
  dimension: number;
  metric: 'cosine' | 'dotproduct' | 'euclidean';
  namespaces: Map<string, FakePineconeVector[]>;
  server: Server;
  host: string;
};

const MAX_TOP_K = 10_000;

/** The control plane's error shape. */
const controlError = (status: number, code: string, message: string) => ({
  error: { code, message },
  status,
});
/** The data plane's error shape (gRPC status codes: 3 invalid argument, 5 not found, 16 unauthenticated). */
const dataError = (code: number, message: string) => ({ code, message, details: [] });

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function score(metric: Index['metric'], a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let squared = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
    squared += (a[i] - b[i]) ** 2;
  }
  if (metric === 'dotproduct') return dot;
  if (metric === 'euclidean') return squared;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

const isVector = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v));

export async function startFakePineconeServer(options: { apiKey?: string } = {}) {
  const apiKey = options.apiKey ?? `pcsk_${randomBytes(16).toString('hex')}`;
  const indexes = new Map<string, Index>();
  const requests: FakePineconeRequest[] = [];

  const keyOf = (req: IncomingMessage) => {
    const value = req.headers['api-key'];
    return Array.isArray(value) ? value[0] : value;
  };
  const record = (req: IncomingMessage, plane: 'control' | 'data', body: unknown, index?: string) => {
    const version = req.headers['x-pinecone-api-version'];
    requests.push({
      plane,
      index,
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0],
      apiKey: keyOf(req),
      apiVersion: Array.isArray(version) ? version[0] : version,
      body,
    });
  };

  const describe = (index: Index) => ({
    name: index.name,
    vector_type: 'dense',
    metric: index.metric,
    dimension: index.dimension,
    status: { ready: true, state: 'Ready' },
    host: index.host,
    spec: { serverless: { region: 'us-east-1', cloud: 'aws' } },
    deletion_protection: 'disabled',
    tags: null,
  });

  const control = createServer((req, res) => {
    void (async () => {
      await readBody(req);
      record(req, 'control', undefined);
      if (keyOf(req) !== apiKey)
        return send(res, 401, controlError(401, 'UNAUTHENTICATED', 'Invalid API Key'));
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/indexes') {
        return send(res, 200, { indexes: [...indexes.values()].map(describe) });
      }
      const match = /^\/indexes\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && match) {
        const name = decodeURIComponent(match[1]);
        const index = indexes.get(name);
        if (!index) return send(res, 404, controlError(404, 'NOT_FOUND', `Resource ${name} not found`));
        return send(res, 200, describe(index));
      }
      send(res, 404, controlError(404, 'NOT_FOUND', 'Not Found'));
    })();
  });

  function query(index: Index, body: Json, res: ServerResponse) {
    const { vector, id, topK, namespace = '', includeMetadata = false, includeValues = false } = body;
    if (topK === undefined) return send(res, 400, dataError(3, 'Missing field: topK'));
    if (!Number.isInteger(topK) || (topK as number) < 1 || (topK as number) > MAX_TOP_K)
      return send(res, 400, dataError(3, `topK must be in the range [1, ${MAX_TOP_K}]`));
    if ((vector === undefined) === (id === undefined))
      return send(res, 400, dataError(3, 'Exactly one of vector or id must be provided.'));
    if (typeof namespace !== 'string') return send(res, 400, dataError(3, 'namespace must be a string'));
    const records = index.namespaces.get(namespace) ?? [];
    let probe: number[];
    if (vector !== undefined) {
      if (!isVector(vector)) return send(res, 400, dataError(3, 'vector must be a list of numbers'));
      if (vector.length !== index.dimension)
        return send(
          res,
          400,
          dataError(
            3,
            `Vector dimension ${vector.length} does not match the dimension of the index ${index.dimension}`,
          ),
        );
      probe = vector;
    } else {
      const found = records.find((r) => r.id === id);
      if (!found) return send(res, 200, { results: [], matches: [], namespace, usage: { readUnits: 1 } });
      probe = found.values;
    }
    const ascending = index.metric === 'euclidean';
    const matches = records
      .map((r) => ({ record: r, score: score(index.metric, probe, r.values) }))
      .sort((a, b) => (ascending ? a.score - b.score : b.score - a.score))
      .slice(0, topK as number)
      .map(({ record, score }) => ({
        id: record.id,
        score,
        values: includeValues ? record.values : [],
        ...(includeMetadata && record.metadata ? { metadata: record.metadata } : {}),
      }));
    send(res, 200, { results: [], matches, namespace, usage: { readUnits: 5 } });
  }

  function dataPlane(index: Index) {
    return createServer((req, res) => {
      void (async () => {
        const text = await readBody(req);
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        record(req, 'data', body, index.name);
        if (keyOf(req) !== apiKey) return send(res, 401, dataError(16, 'Invalid API Key'));
        const path = (req.url ?? '/').split('?')[0];
        if (req.method === 'POST' && path === '/query') {
          if (!body || typeof body !== 'object' || Array.isArray(body))
            return send(res, 400, dataError(3, 'Invalid request body: expected a JSON object'));
          return query(index, body as Json, res);
        }
        if (req.method === 'POST' && path === '/describe_index_stats') {
          const namespaces = Object.fromEntries(
            [...index.namespaces].map(([name, records]) => [name, { vectorCount: records.length }]),
          );
          return send(res, 200, { namespaces, dimension: index.dimension, indexFullness: 0 });
        }
        send(res, 404, dataError(5, 'Not Found'));
      })();
    });
  }

  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

  return {
    /** The control plane's origin (what `https://api.pinecone.io` is for the real service). */
    url,
    /** The project's API key: the only one the fake accepts. */
    apiKey,
    requests,
    /** Creates an index with its own data-plane host and answers its description. */
    async addIndex(input: FakePineconeIndexInput) {
      await this.removeIndex(input.name);
      const index = {
        name: input.name,
        dimension: input.dimension,
        metric: input.metric ?? 'cosine',
        namespaces: new Map(Object.entries({ '': input.vectors ?? [], ...input.namespaces })),
        host: '',
      } as Index;
      index.server = dataPlane(index);
      await new Promise<void>((resolve) => index.server.listen(0, '127.0.0.1', resolve));
      index.host = `127.0.0.1:${(index.server.address() as AddressInfo).port}`;
      indexes.set(input.name, index);
      return describe(index);
    },
    async removeIndex(name: string) {
      const index = indexes.get(name);
      if (!index) return;
      indexes.delete(name);
      await new Promise<void>((resolve) => {
        index.server.close(() => resolve());
        index.server.closeAllConnections();
      });
    },
    reset() {
      requests.length = 0;
    },
    async close() {
      for (const name of [...indexes.keys()]) await this.removeIndex(name);
      await new Promise<void>((resolve) => {
        control.close(() => resolve());
        control.closeAllConnections();
      });
    },
  };
}
