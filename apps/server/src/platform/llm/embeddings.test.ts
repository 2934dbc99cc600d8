import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeEmbedding, startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { LlmCallError, LlmConfigurationError } from './errors';
import { createLlmGateway } from './gateway';
import type { LlmConnection } from './types';

const KEY = 'sk-test-0123456789abcdef';
// retry-after-ms lets the SDK retry at once instead of after its 2 s initial backoff.
const RETRY_NOW = { headers: { 'retry-after-ms': '0' } };

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer({ requireKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const openai = (): LlmConnection => ({ provider: 'openai', apiKey: KEY, baseUrl: fake.url });
const texts = (n: number) => Array.from({ length: n }, (_, i) => `document ${i} about topic ${i % 7}`);
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('LLM gateway: embed', () => {
  it('embeds in batches of 64, a few at a time, and answers in the order of the texts', async () => {
    const gateway = createLlmGateway();
    const input = texts(150);

    const result = await gateway.embed({
      connection: openai(),
      model: 'text-embedding-3-small',
      texts: input,
    });

    expect(result.embeddings).toEqual(input.map((text) => fakeEmbedding(text)));
    expect(fake.requests.map((r) => r.body.input.length).sort((a, b) => a - b)).toEqual([22, 64, 64]);
    expect(fake.requests.every((r) => r.path === '/v1/embeddings')).toBe(true);
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0].body).toMatchObject({
      model: 'text-embedding-3-small',
      encoding_format: 'float',
    });
    // Each text is 5 words; the fake counts a token per word.
    expect(result.tokens).toBe(150 * 5);
  });

  it('keeps the order one batch at a time too', async () => {
    const gateway = createLlmGateway({ embedBatchSize: 2, embedConcurrency: 1 });
    const input = texts(5);
    const result = await gateway.embed({ connection: openai(), model: 'm', texts: input });
    expect(result.embeddings).toEqual(input.map((text) => fakeEmbedding(text)));
    expect(fake.requests.map((r) => r.body.input)).toEqual([
      input.slice(0, 2),
      input.slice(2, 4),
      [input[4]],
    ]);
  });

  it('asks for the dimensions given', async () => {
    const gateway = createLlmGateway();
    const result = await gateway.embed({ connection: openai(), model: 'm', texts: ['a b'], dimensions: 256 });
    expect(fake.requests[0].body.dimensions).toBe(256);
    expect(result.embeddings[0]).toHaveLength(256);
  });

  it('answers nothing for no texts, without a request', async () => {
    const result = await createLlmGateway().embed({ connection: openai(), model: 'm', texts: [] });
    expect(result).toEqual({ embeddings: [], tokens: 0 });
    expect(fake.requests).toHaveLength(0);
  });

  it('embeds through a local or custom connection (OpenAI-compatible)', async () => {
    const gateway = createLlmGateway();
    const local = await gateway.embed({
      connection: { provider: 'local', baseUrl: fake.url, apiKey: KEY },
      model: 'nomic-embed-text',
      texts: ['hello world'],
    });
    expect(local.embeddings).toEqual([fakeEmbedding('hello world')]);
    const custom = await gateway.embed({
      connection: { provider: 'custom', baseUrl: fake.url, apiKey: KEY },
      model: 'bge-small',
      texts: ['one', 'two'],
    });
    expect(custom.embeddings).toEqual([fakeEmbedding('one'), fakeEmbedding('two')]);
    expect(fake.requests.map((r) => [r.path, r.body.model])).toEqual([
      ['/v1/embeddings', 'nomic-embed-text'],
      ['/v1/embeddings', 'bge-small'],
    ]);
  });

  it('refuses Anthropic, which has no embedding models', async () => {
    const error = await caught(
      createLlmGateway().embed({
        connection: { provider: 'anthropic', apiKey: KEY, baseUrl: fake.url },
        model: 'claude-sonnet-4-5',
        texts: ['x'],
      }),
    );
    expect(error).toBeInstanceOf(LlmConfigurationError);
    expect((error as Error).message).toBe(
      'Anthropic has no embedding models: choose an OpenAI, local or custom connection.',
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an OpenAI connection without a key instead of reading OPENAI_API_KEY', async () => {
    const error = await caught(
      createLlmGateway().embed({
        connection: { provider: 'openai', baseUrl: fake.url },
        model: 'm',
        texts: ['x'],
      }),
    );
    expect(error).toBeInstanceOf(LlmConfigurationError);
    expect(fake.requests).toHaveLength(0);
  });

  it('reports a refused key once, without the key', async () => {
    const wrong = 'sk-wrong-9876543210fedcba';
    const error = await caught(
      createLlmGateway().embed({
        connection: { provider: 'openai', apiKey: wrong, baseUrl: fake.url },
        model: 'm',
        texts: ['x'],
      }),
    );
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error).toMatchObject({ kind: 'http', statusCode: 401 });
    expect((error as Error).message).toBe('OpenAI answered 401: Incorrect API key provided');
    expect((error as Error).message).not.toContain(wrong);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 500 and succeeds', async () => {
    fake.failNext(500, undefined, 1, RETRY_NOW);
    const result = await createLlmGateway().embed({ connection: openai(), model: 'm', texts: ['x'] });
    expect(result.embeddings).toEqual([fakeEmbedding('x')]);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after maxRetries, and stops the other batches', async () => {
    fake.failNext(500, undefined, 3, RETRY_NOW);
    const gateway = createLlmGateway({ maxRetries: 2, embedBatchSize: 1, embedConcurrency: 1 });
    const error = await caught(gateway.embed({ connection: openai(), model: 'm', texts: ['a', 'b', 'c'] }));
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error).toMatchObject({ statusCode: 500, attempts: 3 });
    expect((error as Error).message).toBe('OpenAI answered 500: Fake failure 500 (after 3 attempts)');
    expect(fake.requests).toHaveLength(3);
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await caught(
      createLlmGateway().embed({ connection: openai(), model: 'm', texts: ['x'], signal: controller.signal }),
    );
    expect(error).toMatchObject({ kind: 'aborted', message: 'The call to OpenAI was cancelled' });
  });

  it('goes through the injected fetch', async () => {
    const seen: string[] = [];
    const gateway = createLlmGateway({
      fetch: (input, init) => {
        seen.push(String(input instanceof Request ? input.url : input));
        return globalThis.fetch(input, init);
      },
    });
    await gateway.embed({ connection: openai(), model: 'm', texts: ['x'] });
    expect(seen).toEqual([`${fake.url}/embeddings`]);
  });
});
