import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEgress } from '../../../platform/egress';
import { createLlmGateway } from '../../../platform/llm';
import { fakeEmbedding, startFakeLlmServer, type FakeLlmServer } from '../../../testing/fake-llm-server';
import { startFakePineconeServer, type FakePineconeServer } from '../../../testing/fake-pinecone-server';
import { testConfig } from '../../../testing/test-config';
import type { ResolvedTool } from '../tools.service';
import { resolvedTool, TOOL_ORGANIZATION_ID } from '../../../testing/resolved-tool';
import { PINECONE_API_VERSION } from './pinecone-client';
import { createToolRuntime } from './tool-runtime';

// A Vector Store tool on a Pinecone index, against the suite's fake Pinecone (real HTTP, Pinecone's
// protocol and refusals) and the fake model server's embeddings, through the real egress module.

const DIMENSIONS = 64;
const REFUNDS = 'Refunds are paid back to the original card within five business days.';
const SHIPPING = 'Parcels ship from Lyon on weekdays and arrive within three days.';
const RETURNS = 'Items can be returned within thirty days in their original packaging.';

let pinecone: FakePineconeServer;
let llmServer: FakeLlmServer;

beforeAll(async () => {
  [pinecone, llmServer] = await Promise.all([startFakePineconeServer(), startFakeLlmServer()]);
  await pinecone.addIndex({
    name: 'handbook',
    dimension: DIMENSIONS,
    vectors: [
      {
        id: 'doc-1#0',
        values: fakeEmbedding(REFUNDS, DIMENSIONS),
        metadata: { text: REFUNDS, source: 'refunds.md' },
      },
      {
        id: 'doc-2#0',
        values: fakeEmbedding(SHIPPING, DIMENSIONS),
        metadata: { text: SHIPPING, title: 'Shipping' },
      },
      { id: 'doc-3#0', values: fakeEmbedding(RETURNS, DIMENSIONS), metadata: { content: RETURNS } },
    ],
    namespaces: {
      eu: [
        {
          id: 'eu-1',
          values: fakeEmbedding(REFUNDS, DIMENSIONS),
          metadata: { text: 'EU refunds', source: 'eu.md' },
        },
      ],
    },
  });
  await pinecone.addIndex({ name: 'wide', dimension: 768 });
});
afterAll(async () => {
  await pinecone?.close();
  await llmServer?.close();
});
beforeEach(() => {
  pinecone.reset();
  llmServer.reset();
});

const organizationId = TOOL_ORGANIZATION_ID;
const OPENAI_KEY = 'sk-org-openai-key-0001';

function runtime() {
  return createToolRuntime({
    config: testConfig({ pineconeApiUrl: pinecone.url }),
    egress: createEgress({ allowList: ['127.0.0.1'] }).for('tool'),
    llm: createLlmGateway({ maxRetries: 0 }),
    connectionFor: async (_organizationId, provider) => ({
      provider,
      apiKey: OPENAI_KEY,
      baseUrl: llmServer.url,
    }),
    sendgridSettings: async () => undefined,
    knowledgeSearch: async () => {
      throw new Error('a Pinecone tool never searches the built-in store');
    },
  });
}

function pineconeTool(settings: Record<string, unknown>): ResolvedTool {
  return resolvedTool({
    name: 'Handbook',
    category: 'vector_store',
    provider: 'pinecone',
    settings: { indexName: 'handbook', dimensions: DIMENSIONS, apiKey: pinecone.apiKey, ...settings },
  });
}

async function build(settings: Record<string, unknown> = {}) {
  const tools = await runtime().modelTools(organizationId, [pineconeTool(settings)]);
  const [[name, tool]] = Object.entries(tools);
  return { name, tool };
}

describe('a Vector Store tool on a Pinecone index', () => {
  it('is offered as search_<name> and answers the closest records as hits with source and score', async () => {
    const { name, tool } = await build();
    expect(name).toBe('search_handbook_22222222');
    expect(tool.description).toContain('Pinecone index "handbook"');

    const result = (await tool.execute({ query: 'refunds paid back to the card', topK: 3 })) as {
      query: string;
      hits: { source: string; score: number; text: string }[];
    };
    expect(result.query).toBe('refunds paid back to the card');
    expect(result.hits).toHaveLength(3);
    expect(result.hits[0]).toEqual({ source: 'refunds.md', score: expect.any(Number), text: REFUNDS });
    expect(result.hits[0].score).toBeGreaterThan(result.hits[1].score);
    // `title` stands in for a missing source, the match id for both; `content` for a missing text.
    expect(result.hits.map((hit) => hit.source).sort()).toEqual(['Shipping', 'doc-3#0', 'refunds.md']);
    expect(result.hits.find((hit) => hit.source === 'doc-3#0')?.text).toBe(RETURNS);

    // The query was embedded at the tool's dimensions with the organization's connection…
    const embeddings = llmServer.requests.filter((r) => r.path === '/v1/embeddings');
    expect(embeddings).toHaveLength(1);
    expect(embeddings[0].body).toMatchObject({ model: 'text-embedding-3-small', dimensions: DIMENSIONS });
    // …and Pinecone was asked as its clients ask: describe the index, then query its host with the key.
    expect(pinecone.requests.map((r) => `${r.plane} ${r.method} ${r.path}`)).toEqual([
      'control GET /indexes/handbook',
      'data POST /query',
    ]);
    expect(pinecone.requests.every((r) => r.apiKey === pinecone.apiKey)).toBe(true);
    expect(pinecone.requests[0].apiVersion).toBe(PINECONE_API_VERSION);
    expect(pinecone.requests[1].body).toMatchObject({ topK: 3, includeMetadata: true, includeValues: false });
  });

  it('describes the index once per run, defaults topK to 5 and searches the configured namespace', async () => {
    const { tool } = await build({ namespace: 'eu' });
    const first = (await tool.execute({ query: 'refunds' })) as { hits: { source: string }[] };
    await tool.execute({ query: 'refunds again' });
    expect(first.hits).toEqual([expect.objectContaining({ source: 'eu.md', text: 'EU refunds' })]);
    expect(pinecone.requests.filter((r) => r.plane === 'control')).toHaveLength(1);
    expect(pinecone.requests.filter((r) => r.plane === 'data').map((r) => r.body)).toEqual([
      expect.objectContaining({ topK: 5, namespace: 'eu' }),
      expect.objectContaining({ topK: 5, namespace: 'eu' }),
    ]);
  });

  it("fails with Pinecone's own message on a wrong key, and the key is never in it", async () => {
    const wrongKey = 'pcsk_wrong_key_5f2a9c7d1e';
    const { tool } = await build({ apiKey: wrongKey });
    const failure = await tool.execute({ query: 'refunds' }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toBe('Pinecone refused to describe the index "handbook" (401): Invalid API Key');
    expect(failure?.message).not.toContain(wrongKey);
    expect(pinecone.requests[0].apiKey).toBe(wrongKey);
  });

  it('says which dimensions differ when the index is not of the tool’s, before embedding anything', async () => {
    const { tool } = await build({ indexName: 'wide', dimensions: 1536 });
    await expect(tool.execute({ query: 'refunds' })).rejects.toThrow(
      'The index "wide" holds vectors of 768 dimensions; this tool is set to 1536.',
    );
    expect(llmServer.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(0);
  });

  it('refuses an embedding model that answers another length than the tool’s', async () => {
    llmServer.embeddingDimensionsOverride(32);
    const { tool } = await build();
    await expect(tool.execute({ query: 'refunds' })).rejects.toThrow(
      'The embedding model "text-embedding-3-small" answered vectors of 32 dimensions; this tool is set to 64.',
    );
    expect(pinecone.requests.filter((r) => r.plane === 'data')).toHaveLength(0);
  });

  it('names an index Pinecone does not have', async () => {
    const { tool } = await build({ indexName: 'missing' });
    await expect(tool.execute({ query: 'refunds' })).rejects.toThrow(
      'Pinecone refused to describe the index "missing" (404): Resource missing not found',
    );
  });

  it('is not offered without an index name or a key, and a knowledge base wins over an index', async () => {
    expect(await runtime().modelTools(organizationId, [pineconeTool({ apiKey: '' })])).toEqual({});
    expect(await runtime().modelTools(organizationId, [pineconeTool({ indexName: ' ' })])).toEqual({});
    const onBase = await runtime().modelTools(organizationId, [
      pineconeTool({ knowledgeBaseId: '33333333-3333-4333-8333-333333333333' }),
    ]);
    await expect(Object.values(onBase)[0].execute({ query: 'x' })).rejects.toThrow('built-in store');
    expect(pinecone.requests).toHaveLength(0);
  });
});

describe('the fake Pinecone server', () => {
  const post = (host: string, body: unknown, key = pinecone.apiKey) =>
    fetch(`http://${host}/query`, {
      method: 'POST',
      headers: { 'Api-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("refuses what Pinecone refuses, in Pinecone's shapes", async () => {
    const describe = await fetch(`${pinecone.url}/indexes/handbook`, { headers: { 'Api-Key': 'nope' } });
    expect(describe.status).toBe(401);
    expect(await describe.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' },
      status: 401,
    });
    const described = (await (
      await fetch(`${pinecone.url}/indexes/handbook`, { headers: { 'Api-Key': pinecone.apiKey } })
    ).json()) as { host: string };
    expect(described).toMatchObject({ name: 'handbook', dimension: DIMENSIONS, metric: 'cosine' });
    const host = described.host;
    expect(host).not.toMatch(/^https?:/);

    expect((await post(host, { vector: new Array(DIMENSIONS).fill(0.1), topK: 1 }, 'nope')).status).toBe(401);
    const noTopK = await post(host, { vector: new Array(DIMENSIONS).fill(0.1) });
    expect(noTopK.status).toBe(400);
    const both = await post(host, { vector: new Array(DIMENSIONS).fill(0.1), id: 'doc-1#0', topK: 1 });
    expect(both.status).toBe(400);
    const short = await post(host, { vector: [0.1, 0.2], topK: 1 });
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({
      code: 3,
      message: `Vector dimension 2 does not match the dimension of the index ${DIMENSIONS}`,
      details: [],
    });
    const byId = (await (await post(host, { id: 'doc-1#0', topK: 1, includeMetadata: true })).json()) as {
      matches: unknown[];
    };
    expect(byId.matches[0]).toMatchObject({ id: 'doc-1#0', metadata: { source: 'refunds.md' } });
  });
});
