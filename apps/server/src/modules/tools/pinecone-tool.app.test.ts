import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tools } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { loggerOptions } from '../../platform/logger';
import { attachNewTool, configureModel, createAgent, createChainWorkflow } from '../../testing/app-fixtures';
import { fakeEmbedding, startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { startFakePineconeServer, type FakePineconeServer } from '../../testing/fake-pinecone-server';
import { createKnowledgeBase, ingest } from '../../testing/knowledge-fixtures';
import {
  agentWithSearchTool,
  askAboutRefunds,
  chatRequestsOf,
  firstToolCall,
  scriptOneSearch,
  searchSeenByModel,
} from '../../testing/search-tool-runs';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { modelToolName } from './runtime/tool-runtime';

// A Vector Store tool on a Pinecone index, end to end: its Test action, an agent's run that searches
// it (through the fake model server and the suite's fake Pinecone), and its key kept to its own
// organization, out of responses, run records and logs.

const DIMENSIONS = 64;
const REFUNDS = 'Refunds are paid back to the original card within five business days of the return.';
const SHIPPING = 'Parcels ship from Lyon on weekdays and arrive within three days in France.';

let t: TestApp;
let fake: FakeLlmServer;
let pinecone: FakePineconeServer;
let ada: AuthResponse;
let bob: AuthResponse;
const logLines: string[] = [];

beforeAll(async () => {
  [fake, pinecone] = await Promise.all([startFakeLlmServer(), startFakePineconeServer()]);
  await pinecone.addIndex({
    name: 'support',
    dimension: DIMENSIONS,
    vectors: [
      {
        id: 'r1',
        values: fakeEmbedding(REFUNDS, DIMENSIONS),
        metadata: { text: REFUNDS, source: 'refunds.md' },
      },
      {
        id: 's1',
        values: fakeEmbedding(SHIPPING, DIMENSIONS),
        metadata: { text: SHIPPING, source: 'shipping.md' },
      },
    ],
  });
  await pinecone.addIndex({ name: 'wide', dimension: 768 });
  t = await createTestApp({
    worker: true,
    config: { pineconeApiUrl: pinecone.url },
    loggerInstance: pino(
      loggerOptions('trace'),
      new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }),
    ),
  });
  ada = await t.signup();
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url);
  await configureModel(t, bob.token, fake.url);
});
afterAll(async () => {
  // Ada's Pinecone key never left the server: not in a response, not in a log line.
  expect(logLines.length).toBeGreaterThan(0);
  expect(t.responseBodies.some((body) => body.includes(pinecone.apiKey))).toBe(false);
  expect(logLines.some((line) => line.includes(pinecone.apiKey))).toBe(false);
  await t?.close();
  await fake?.close();
  await pinecone?.close();
});
beforeEach(() => {
  fake.reset();
  pinecone.reset();
});

async function createTool(token: string, config: Record<string, unknown>, name = 'Support Index') {
  const res = await t.request({
    method: 'POST',
    url: '/api/tools',
    token,
    payload: { name, category: 'vector_store', provider: 'pinecone', config },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: string; config: Record<string, unknown> };
}

const testTool = (token: string, id: string) =>
  t.request({ method: 'POST', url: `/api/tools/${id}/test`, token });

describe('a Pinecone tool', () => {
  it('stores its key encrypted and answers it masked', async () => {
    const tool = await createTool(ada.token, {
      indexName: 'support',
      dimensions: DIMENSIONS,
      apiKey: pinecone.apiKey,
    });
    expect(tool.config).toMatchObject({ indexName: 'support', dimensions: DIMENSIONS });
    expect(tool.config.apiKey).toMatch(/^•+/);
    const [row] = await t.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(JSON.stringify(row)).not.toContain(pinecone.apiKey);
  });

  describe('Test', () => {
    it('connects to the index with the key and checks its dimensions', async () => {
      const tool = await createTool(ada.token, {
        indexName: 'support',
        dimensions: DIMENSIONS,
        apiKey: pinecone.apiKey,
      });
      const res = await testTool(ada.token, tool.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ok: true,
        message: `Connected to the index "support": ${DIMENSIONS} dimensions, cosine metric.`,
      });
      expect(pinecone.requests).toEqual([
        expect.objectContaining({ plane: 'control', path: '/indexes/support', apiKey: pinecone.apiKey }),
      ]);
    });

    it('reports an index of other dimensions than the tool’s', async () => {
      const tool = await createTool(ada.token, {
        indexName: 'wide',
        dimensions: 1536,
        apiKey: pinecone.apiKey,
      });
      expect((await testTool(ada.token, tool.id)).json()).toEqual({
        ok: false,
        message: 'The index "wide" holds vectors of 768 dimensions; this tool is set to 1536.',
      });
    });

    it("reports a wrong key or a missing index in Pinecone's words", async () => {
      const wrongKey = 'pcsk_not_the_project_key_77';
      const wrong = await createTool(ada.token, {
        indexName: 'support',
        dimensions: DIMENSIONS,
        apiKey: wrongKey,
      });
      const refused = (await testTool(ada.token, wrong.id)).json();
      expect(refused).toEqual({
        ok: false,
        message: 'Pinecone refused to describe the index "support" (401): Invalid API Key',
      });
      const missing = await createTool(ada.token, { indexName: 'nowhere', apiKey: pinecone.apiKey });
      expect((await testTool(ada.token, missing.id)).json()).toEqual({
        ok: false,
        message: 'Pinecone refused to describe the index "nowhere" (404): Resource nowhere not found',
      });
    });

    it('asks for an index and a key, or a knowledge base, and checks the knowledge base is ready', async () => {
      const empty = await createTool(ada.token, { indexName: 'support' });
      expect((await testTool(ada.token, empty.id)).json()).toEqual({
        ok: false,
        message: 'Choose a knowledge base, or enter a Pinecone index name and API key.',
      });

      const base = await createKnowledgeBase(t, ada.token, { name: 'Handbook' });
      const onBase = await createTool(ada.token, { knowledgeBaseId: base.id }, 'Handbook');
      expect((await testTool(ada.token, onBase.id)).json()).toEqual({
        ok: false,
        message: 'The knowledge base "Handbook" has no ready documents yet: add one before agents search it.',
      });
      await ingest(t, ada.token, base.id, {
        name: 'refunds.md',
        mediaType: 'text/markdown',
        content: REFUNDS,
      });
      expect((await testTool(ada.token, onBase.id)).json()).toEqual({
        ok: true,
        message: 'The knowledge base "Handbook" is ready: 1 document, 1 passage.',
      });
      await t.request({ method: 'DELETE', url: `/api/knowledge-bases/${base.id}`, token: ada.token });
      expect((await testTool(ada.token, onBase.id)).json()).toEqual({
        ok: false,
        message: 'The knowledge base this tool searches no longer exists.',
      });
    });

    it('is for Vector Store tools of the organization only', async () => {
      const api = await t.request({
        method: 'POST',
        url: '/api/tools',
        token: ada.token,
        payload: { name: 'Orders', category: 'api', config: { baseUrl: 'https://api.example.com' } },
      });
      const other = await testTool(ada.token, api.json().id);
      expect(other.statusCode).toBe(400);
      expect(other.json().message).toBe('Only Vector Store tools have a Test action.');

      const adas = await createTool(ada.token, {
        indexName: 'support',
        dimensions: DIMENSIONS,
        apiKey: pinecone.apiKey,
      });
      const foreign = await testTool(bob.token, adas.id);
      expect(foreign.statusCode).toBe(404);
      expect((await testTool(bob.token, 'not-a-uuid')).statusCode).toBe(404);
      expect((await t.request({ method: 'POST', url: `/api/tools/${adas.id}/test` })).statusCode).toBe(401);
      expect(pinecone.requests).toHaveLength(0);
    });
  });

  it('gives an agent search_<name>, whose hits reach the model and the step record, without the key', async () => {
    const { toolName, workflowId } = await agentWithSearchTool(t, ada, {
      name: 'Support Index',
      config: { indexName: 'support', dimensions: DIMENSIONS, apiKey: pinecone.apiKey },
    });
    scriptOneSearch(fake, toolName, { query: 'refunds paid back card', topK: 1 });

    const execution = await askAboutRefunds(t, ada, workflowId);
    expect(execution.status).toBe('completed');
    const { chats, offered, result } = searchSeenByModel(fake);
    expect(offered).toContain(toolName);
    expect(result).toEqual({
      query: 'refunds paid back card',
      hits: [{ source: 'refunds.md', score: expect.any(Number), text: REFUNDS }],
    });
    expect(execution.output.n1.content).toContain('five business days');

    // The query was embedded at the index's length with the organization's OpenAI connection.
    const embedding = fake.requests.find((request) => request.path === '/v1/embeddings');
    expect(embedding?.body).toMatchObject({ model: 'text-embedding-3-small', dimensions: DIMENSIONS });

    const call = firstToolCall(execution);
    expect(call).toMatchObject({
      name: toolName,
      arguments: { query: 'refunds paid back card', topK: 1 },
      isError: false,
    });
    expect(call?.result).toContain('refunds.md');
    expect(JSON.stringify(execution)).not.toContain(pinecone.apiKey);
    expect(JSON.stringify(chats)).not.toContain(pinecone.apiKey);
  });

  it('fails the search with a clear message when the index is not of the tool’s dimensions', async () => {
    const { toolName, workflowId } = await agentWithSearchTool(
      t,
      ada,
      { name: 'Wide Index', config: { indexName: 'wide', dimensions: DIMENSIONS, apiKey: pinecone.apiKey } },
      'Wide',
    );
    scriptOneSearch(fake, toolName, { query: 'refunds' });
    const call = firstToolCall(await askAboutRefunds(t, ada, workflowId));
    expect(call).toMatchObject({ name: toolName, isError: true });
    expect(call?.result).toContain(
      `The index "wide" holds vectors of 768 dimensions; this tool is set to ${DIMENSIONS}.`,
    );
  });

  it("is never another organization's: Bob can neither attach nor test Ada's tool, and his runs use his key", async () => {
    const adas = await createTool(ada.token, {
      indexName: 'support',
      dimensions: DIMENSIONS,
      apiKey: pinecone.apiKey,
    });
    const bobsAgent = await createAgent(t, bob.token, { name: 'Bob agent' });
    const attach = await t.request({
      method: 'POST',
      url: `/api/agents/${bobsAgent.id}/tools/${adas.id}`,
      token: bob.token,
      payload: { config: {} },
    });
    expect(attach.statusCode).toBe(404);
    const listed = (await t.request({ method: 'GET', url: '/api/tools', token: bob.token })).json() as {
      id: string;
    }[];
    expect(listed.map((tool) => tool.id)).not.toContain(adas.id);

    // Bob's own tool on the same index, with a key of his: Pinecone only ever sees his key.
    const bobsKey = 'pcsk_bobs_own_key_9931';
    const tool = await attachNewTool(t, bob.token, bobsAgent.id, {
      name: 'Support Index',
      category: 'vector_store',
      config: { indexName: 'support', dimensions: DIMENSIONS, apiKey: bobsKey },
    });
    const toolName = `search_${modelToolName(tool)}`;
    const workflowId = await createChainWorkflow(t, bob.token, 'Bob search', [bobsAgent.id]);
    scriptOneSearch(fake, toolName, { query: 'refunds' });
    const call = firstToolCall(await askAboutRefunds(t, bob, workflowId));
    expect(call).toMatchObject({ name: toolName, isError: true });
    expect(call?.result).toContain('Invalid API Key');
    expect(call?.result).not.toContain(bobsKey);
    expect(pinecone.requests.length).toBeGreaterThan(0);
    expect(pinecone.requests.every((request) => request.apiKey === bobsKey)).toBe(true);
    expect(JSON.stringify(chatRequestsOf(fake))).not.toContain('five business days');
  });
});
