import { createOpenAI } from '@ai-sdk/openai';
import { embedMany } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeEmbedding, startFakeLlmServer, type FakeLlmServer } from './fake-llm-server';

let fake: FakeLlmServer;
let keyed: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
  keyed = await startFakeLlmServer({ requireKey: 'sk-right' });
});
afterAll(async () => {
  await fake.close();
  await keyed.close();
});
beforeEach(() => {
  fake.reset();
  keyed.reset();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol bodies, read field by field
const json = (res: Response): Promise<any> => res.json();

const embed = (body: unknown, server = fake, key = 'k') =>
  fetch(`${server.url}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

describe('fake LLM server: embeddings', () => {
  it("answers OpenAI's shape: one unit vector per input, 1536 long, in order, with usage", async () => {
    const res = await embed({ model: 'text-embedding-3-small', input: ['red apples', 'blue sky today'] });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      object: 'list',
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 5, total_tokens: 5 },
    });
    expect(body.data.map((d: { object: string; index: number }) => [d.object, d.index])).toEqual([
      ['embedding', 0],
      ['embedding', 1],
    ]);
    expect(body.data[0].embedding).toHaveLength(1536);
    expect(dot(body.data[0].embedding, body.data[0].embedding)).toBeCloseTo(1, 6);
    expect(body.data[1].embedding).toEqual(fakeEmbedding('blue sky today'));
    expect(fake.requests.map((r) => [r.path, r.body.model])).toEqual([
      ['/v1/embeddings', 'text-embedding-3-small'],
    ]);
  });

  it('takes a single string and honours dimensions', async () => {
    const body = await json(await embed({ model: 'm', input: 'hello', dimensions: 8 }));
    expect(body.data).toHaveLength(1);
    expect(body.data[0].embedding).toHaveLength(8);
  });

  it('puts texts sharing words closer than unrelated ones, plurals included', () => {
    const query = fakeEmbedding('refund policy for invoices');
    const related = fakeEmbedding('Our refund policy: an invoice is refunded within 30 days.');
    const unrelated = fakeEmbedding('The office opens at nine and the canteen serves lunch.');
    expect(dot(query, related)).toBeGreaterThan(0.3);
    expect(dot(query, related)).toBeGreaterThan(dot(query, unrelated) + 0.3);
    expect(fakeEmbedding('Same words here')).toEqual(fakeEmbedding('same WORDS, here!'));
  });

  it('sends float32 little-endian bytes in base64 when asked', async () => {
    const body = await json(await embed({ model: 'm', input: 'hello world', encoding_format: 'base64' }));
    const bytes = Buffer.from(body.data[0].embedding, 'base64');
    const floats = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    expect(floats).toHaveLength(1536);
    expect(Array.from(floats)).toEqual(Array.from(new Float32Array(fakeEmbedding('hello world'))));
  });

  it("refuses what OpenAI refuses, in OpenAI's words", async () => {
    const cases: [unknown, string][] = [
      [{ input: 'x' }, "Missing required parameter: 'model'."],
      [{ model: 'm' }, "Missing required parameter: 'input'."],
      [{ model: 'm', input: [] }, "'$.input' is invalid."],
      [{ model: 'm', input: ['a', ''] }, "'$.input' is invalid."],
      [{ model: 'm', input: 'a', dimensions: 0 }, "Invalid value for 'dimensions'"],
    ];
    for (const [body, message] of cases) {
      const res = await embed(body);
      expect(res.status).toBe(400);
      expect((await json(res)).error.message).toContain(message);
    }
  });

  it('refuses a wrong or missing key when started with requireKey', async () => {
    expect((await embed({ model: 'm', input: 'a' }, keyed, 'sk-wrong')).status).toBe(401);
    expect((await embed({ model: 'm', input: 'a' }, keyed, 'sk-right')).status).toBe(200);
  });

  it('fails on script, and answers with another length while told to', async () => {
    fake.failNext(503);
    expect((await embed({ model: 'm', input: 'a' })).status).toBe(503);

    const control = await fetch(`http://127.0.0.1:${fake.port}/__control/embedding-dimensions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dimensions: 3 }),
    });
    expect(control.status).toBe(200);
    const short = await json(await embed({ model: 'm', input: 'a', dimensions: 1536 }));
    expect(short.data[0].embedding).toHaveLength(3);

    fake.embeddingDimensionsOverride(null);
    expect((await json(await embed({ model: 'm', input: 'a' }))).data[0].embedding).toHaveLength(1536);
  });

  it("is read by the AI SDK's OpenAI provider", async () => {
    const model = createOpenAI({ apiKey: 'k', baseURL: fake.url }).embedding('text-embedding-3-small');
    const result = await embedMany({ model, values: ['one', 'two'], maxRetries: 0 });
    expect(result.embeddings).toEqual([fakeEmbedding('one'), fakeEmbedding('two')]);
    expect(result.usage.tokens).toBe(2);
    expect(fake.requests[0].body.encoding_format).toBe('float');
  });
});
