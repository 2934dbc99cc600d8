import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createLlmGateway } from './gateway';
import { LlmCallError, LlmConfigurationError } from './errors';
import { newLlmTrace, type LlmConnection, type LlmRequest } from './types';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const KEY = 'sk-test-0123456789abcdef';
// retry-after-ms lets the SDK retry at once instead of after its 2 s initial backoff.
const RETRY_NOW = { headers: { 'retry-after-ms': '0' } };

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    connection: { provider: 'openai', apiKey: KEY, baseUrl: fake.url },
    model: 'gpt-4o',
    temperaturePercent: 70,
    maxTokens: 2000,
    system: 'You are a helpful researcher.',
    messages: [{ role: 'user', content: 'What is the capital of France?' }],
    ...overrides,
  };
}

const lookupTool = (calls: unknown[]) => ({
  lookup: {
    description: 'Look a fact up',
    inputSchema: {
      type: 'object' as const,
      properties: { query: { type: 'string' as const } },
      required: ['query'],
    },
    execute: async (args: unknown) => {
      calls.push(args);
      return { answer: 'Paris' };
    },
  },
});

describe('LLM gateway: OpenAI (Chat Completions)', () => {
  it('sends the key, model, temperature, max tokens and system prompt, and returns text and usage', async () => {
    let clock = 1_000;
    const gateway = createLlmGateway({ now: () => (clock += 25) });
    fake.script([{ content: 'Paris is the capital.' }]);

    const result = await gateway.generate(request());

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0];
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ model: 'gpt-4o', temperature: 0.7, max_tokens: 2000 });
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You are a helpful researcher.' },
      { role: 'user', content: 'What is the capital of France?' },
    ]);
    expect(result).toMatchObject({
      text: 'Paris is the capital.',
      usage: { promptTokens: 11, completionTokens: 4, totalTokens: 15 },
      model: 'gpt-4o',
      finishReason: 'stop',
      steps: [{ toolCalls: [], toolResults: [] }],
      durationMs: 25,
    });
  });

  it('runs a tool round trip and sends the result back as a tool message', async () => {
    const gateway = createLlmGateway();
    const calls: unknown[] = [];
    fake.script([
      { toolCalls: [{ name: 'lookup', arguments: { query: 'capital of France' } }] },
      { content: 'It is Paris.' },
    ]);

    const result = await gateway.generate(request({ tools: lookupTool(calls) }));

    expect(calls).toEqual([{ query: 'capital of France' }]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0].body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'lookup',
          description: 'Look a fact up',
          parameters: expect.objectContaining({ type: 'object', required: ['query'] }),
        },
      },
    ]);
    const second = fake.requests[1].body.messages;
    const assistant = second.find((m: { role: string }) => m.role === 'assistant');
    const toolMessage = second.find((m: { role: string }) => m.role === 'tool');
    expect(assistant.tool_calls[0].function).toEqual({
      name: 'lookup',
      arguments: '{"query":"capital of France"}',
    });
    expect(toolMessage).toMatchObject({ tool_call_id: assistant.tool_calls[0].id });
    expect(JSON.parse(toolMessage.content)).toEqual({ answer: 'Paris' });

    expect(result.text).toBe('It is Paris.');
    expect(result.steps).toEqual([
      {
        toolCalls: [{ name: 'lookup', args: { query: 'capital of France' } }],
        toolResults: [{ name: 'lookup', result: { answer: 'Paris' } }],
      },
      { toolCalls: [], toolResults: [] },
    ]);
    // Summed over both calls: the fake counts words, so each call's prompt is at least 11.
    expect(result.usage.promptTokens).toBeGreaterThan(22);
    expect(result.usage.totalTokens).toBe(result.usage.promptTokens + result.usage.completionTokens);
  });

  it('reports a tool that throws to the model instead of failing the call', async () => {
    const gateway = createLlmGateway();
    fake.script([{ toolCalls: [{ name: 'lookup', arguments: { query: 'x' } }] }, { content: 'Sorry.' }]);
    const tools = {
      lookup: { ...lookupTool([]).lookup, execute: async () => Promise.reject(new Error('index offline')) },
    };
    const result = await gateway.generate(request({ tools }));
    expect(result.steps[0].toolResults).toEqual([{ name: 'lookup', result: 'index offline', isError: true }]);
    const toolMessage = fake.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('Error: index offline');
  });

  it('bounds the tool loop at maxSteps', async () => {
    const gateway = createLlmGateway();
    const calls: unknown[] = [];
    fake.script(
      Array.from({ length: 10 }, () => ({ toolCalls: [{ name: 'lookup', arguments: { query: 'again' } }] })),
    );

    const result = await gateway.generate(request({ tools: lookupTool(calls), maxSteps: 3 }));

    expect(fake.requests).toHaveLength(3);
    expect(result.steps).toHaveLength(3);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.text).toBe('');
  });

  it('retries a 500 and succeeds', async () => {
    const gateway = createLlmGateway({ maxRetries: 2 });
    fake.failNext(500, undefined, 1, RETRY_NOW);
    fake.script([{ content: 'recovered' }]);
    const result = await gateway.generate(request());
    expect(result.text).toBe('recovered');
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a 429 with exponential backoff when the provider gives no retry-after', async () => {
    const gateway = createLlmGateway({ maxRetries: 1 });
    fake.failNext(429, { error: { message: 'Rate limit reached' } });
    const started = Date.now();
    const result = await gateway.generate(request());
    // The SDK's first backoff is 2 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(result.text).toBe('Fake reply to: What is the capital of France?');
  });

  it('gives up after maxRetries with the last error', async () => {
    const gateway = createLlmGateway({ maxRetries: 2 });
    fake.failNext(503, { error: { message: 'Overloaded' } }, 3, RETRY_NOW);
    const error = await gateway.generate(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error).toMatchObject({
      message: 'OpenAI answered 503: Overloaded (after 3 attempts)',
      kind: 'http',
      statusCode: 503,
      attempts: 3,
    });
    expect(fake.requests).toHaveLength(3);
  });

  it('traces each tool call with its duration, and the retries of a call that succeeded', async () => {
    let clock = 0;
    const gateway = createLlmGateway({ maxRetries: 2, now: () => (clock += 10) });
    fake.failNext(500, undefined, 1, RETRY_NOW);
    fake.script([{ toolCalls: [{ name: 'lookup', arguments: { query: 'capital' } }] }, { content: 'Paris' }]);
    const trace = newLlmTrace();
    await gateway.generate(request({ tools: lookupTool([]), trace }));
    expect(trace.toolCalls).toEqual([
      {
        name: 'lookup',
        args: { query: 'capital' },
        result: { answer: 'Paris' },
        isError: false,
        durationMs: 10,
      },
    ]);
    expect(trace).toMatchObject({ requests: 3, failedRequests: 1, retries: 1 });
  });

  it('keeps the trace of a call that failed: its tool calls, and the retries before the last error', async () => {
    const gateway = createLlmGateway({ maxRetries: 1 });
    fake.script([
      { toolCalls: [{ name: 'lookup', arguments: { query: 'x' } }] },
      { error: { status: 400, message: 'Context too long' } },
    ]);
    const trace = newLlmTrace();
    const tools = {
      lookup: { ...lookupTool([]).lookup, execute: async () => Promise.reject(new Error('index offline')) },
    };
    await expect(gateway.generate(request({ tools, trace }))).rejects.toBeInstanceOf(LlmCallError);
    expect(trace.toolCalls).toEqual([
      expect.objectContaining({ name: 'lookup', result: 'index offline', isError: true }),
    ]);
    expect(trace).toMatchObject({ requests: 2, failedRequests: 1, retries: 0 });

    // Two attempts that both failed: one retry.
    fake.failNext(503, undefined, 2, RETRY_NOW);
    const retried = newLlmTrace();
    await expect(gateway.generate(request({ trace: retried }))).rejects.toBeInstanceOf(LlmCallError);
    expect(retried).toMatchObject({ requests: 2, failedRequests: 2, retries: 1 });
  });

  it('does not retry when maxRetries is 0', async () => {
    const gateway = createLlmGateway({ maxRetries: 0 });
    fake.failNext(500, undefined, 1, RETRY_NOW);
    await expect(gateway.generate(request())).rejects.toThrow('OpenAI answered 500: Fake failure 500');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry a 401 and reports the provider message without the key', async () => {
    const gateway = createLlmGateway();
    fake.failNext(401, {
      error: {
        message: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    });
    const error = (await gateway.generate(request()).catch((e: unknown) => e)) as LlmCallError;
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error.message).toMatch(/^OpenAI answered 401: Incorrect API key provided/);
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('0123456789abcdef');
    expect(error.statusCode).toBe(401);
    expect(fake.requests).toHaveLength(1);
  });

  it('times out', async () => {
    const gateway = createLlmGateway({ timeoutMs: 200 });
    fake.script([{ content: 'too late', delayMs: 5_000 }]);
    const started = Date.now();
    const error = await gateway.generate(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error).toMatchObject({ kind: 'timeout', message: 'OpenAI did not answer within 0.2 s' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("stops when the caller's signal aborts", async () => {
    const gateway = createLlmGateway();
    fake.script([{ content: 'too late', delayMs: 5_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await gateway.generate(request({ signal: controller.signal })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'aborted', message: 'The call to OpenAI was cancelled' });
  });

  it('reports an unreachable server', async () => {
    const gateway = createLlmGateway({ maxRetries: 0 });
    const closed = await startFakeLlmServer();
    await closed.close();
    const error = await gateway
      .generate(request({ connection: { provider: 'openai', apiKey: KEY, baseUrl: closed.url } }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network' });
    expect((error as Error).message).toContain(`Could not reach OpenAI at ${closed.url}`);
  });

  it('goes through the injected fetch', async () => {
    const seen: string[] = [];
    const gateway = createLlmGateway({
      fetch: (input, init) => {
        seen.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    await gateway.generate(request());
    await gateway.listModels({ provider: 'openai', apiKey: KEY, baseUrl: fake.url });
    expect(seen).toEqual([`${fake.url}/chat/completions`, `${fake.url}/models`]);
  });

  it('refuses an OpenAI connection without a key instead of reading OPENAI_API_KEY', async () => {
    const gateway = createLlmGateway();
    await expect(
      gateway.generate(request({ connection: { provider: 'openai', baseUrl: fake.url } })),
    ).rejects.toBeInstanceOf(LlmConfigurationError);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('LLM gateway: local and custom (OpenAI-compatible)', () => {
  it.each<LlmConnection['provider']>(['local', 'custom'])(
    '%s talks Chat Completions at its base URL',
    async (provider) => {
      const gateway = createLlmGateway();
      const result = await gateway.generate(
        request({
          connection: { provider, baseUrl: fake.url, apiKey: 'custom-key' },
          model: 'llama3.1:8b',
          temperaturePercent: 0,
        }),
      );
      expect(result.text).toBe('Fake reply to: What is the capital of France?');
      expect(result.usage.totalTokens).toBeGreaterThan(0);
      expect(fake.requests[0].path).toBe('/v1/chat/completions');
      expect(fake.requests[0].headers.authorization).toBe('Bearer custom-key');
      expect(fake.requests[0].body).toMatchObject({ model: 'llama3.1:8b', temperature: 0, max_tokens: 2000 });
    },
  );

  it('local works without a key', async () => {
    const gateway = createLlmGateway();
    await gateway.generate(request({ connection: { provider: 'local', baseUrl: fake.url } }));
    expect(fake.requests[0].headers.authorization).toBeUndefined();
  });

  it('runs tools through the compatible provider too', async () => {
    const gateway = createLlmGateway();
    const calls: unknown[] = [];
    fake.script([{ toolCalls: [{ name: 'lookup', arguments: { query: 'q' } }] }, { content: 'done' }]);
    const result = await gateway.generate(
      request({ connection: { provider: 'custom', baseUrl: fake.url }, tools: lookupTool(calls) }),
    );
    expect(calls).toEqual([{ query: 'q' }]);
    expect(result.text).toBe('done');
    expect(fake.requests[1].body.messages.some((m: { role: string }) => m.role === 'tool')).toBe(true);
  });

  it('names the provider in errors', async () => {
    const gateway = createLlmGateway({ maxRetries: 0 });
    fake.failNext(404, { error: { message: 'model "nope" not found, try pulling it first' } });
    await expect(
      gateway.generate(request({ connection: { provider: 'local', baseUrl: fake.url } })),
    ).rejects.toThrow('Local (Ollama) answered 404: model "nope" not found, try pulling it first');
  });
});

describe('LLM gateway: Anthropic (Messages API)', () => {
  const anthropic = (): LlmConnection => ({ provider: 'anthropic', apiKey: KEY, baseUrl: fake.url });

  it('sends x-api-key, the system prompt, temperature and max_tokens', async () => {
    const gateway = createLlmGateway();
    fake.script([{ content: 'Bonjour.' }]);
    const result = await gateway.generate(request({ connection: anthropic(), model: 'claude-sonnet-4-5' }));

    const sent = fake.requests[0];
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-5', temperature: 0.7, max_tokens: 2000 });
    expect(sent.body.system).toEqual([{ type: 'text', text: 'You are a helpful researcher.' }]);
    expect(result).toMatchObject({
      text: 'Bonjour.',
      usage: { promptTokens: 11, completionTokens: 1, totalTokens: 12 },
      finishReason: 'stop',
    });
  });

  it('runs a tool round trip with tool_use and tool_result blocks', async () => {
    const gateway = createLlmGateway();
    const calls: unknown[] = [];
    fake.script([{ toolCalls: [{ name: 'lookup', arguments: { query: 'France' } }] }, { content: 'Paris.' }]);
    const result = await gateway.generate(request({ connection: anthropic(), tools: lookupTool(calls) }));

    expect(calls).toEqual([{ query: 'France' }]);
    expect(fake.requests[0].body.tools[0]).toMatchObject({
      name: 'lookup',
      input_schema: { type: 'object' },
    });
    const last = fake.requests[1].body.messages.at(-1);
    expect(last.role).toBe('user');
    expect(last.content[0]).toMatchObject({ type: 'tool_result' });
    expect(JSON.stringify(last.content[0].content)).toContain('Paris');
    expect(result.text).toBe('Paris.');
    expect(result.steps[0].toolCalls).toEqual([{ name: 'lookup', args: { query: 'France' } }]);
  });

  it('reports Anthropic errors with their message', async () => {
    const gateway = createLlmGateway();
    fake.failNext(401, {
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    await expect(gateway.generate(request({ connection: anthropic() }))).rejects.toThrow(
      'Anthropic answered 401: invalid x-api-key',
    );
  });
});

describe('LLM gateway: streamed answers', () => {
  const providers: Array<[string, () => LlmConnection]> = [
    ['OpenAI', () => ({ provider: 'openai', apiKey: KEY, baseUrl: fake.url })],
    ['Anthropic', () => ({ provider: 'anthropic', apiKey: KEY, baseUrl: fake.url })],
    ['a custom connection', () => ({ provider: 'custom', baseUrl: fake.url })],
  ];

  it.each(providers)(
    '%s: the answer arrives in pieces that add up to the text, with usage',
    async (_, connection) => {
      const gateway = createLlmGateway();
      fake.script([{ content: 'Paris is the capital of France.' }]);
      const pieces: string[] = [];
      const result = await gateway.generate(
        request({ connection: connection(), onTextDelta: (text) => pieces.push(text) }),
      );
      expect(fake.requests[0].body.stream).toBe(true);
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.join('')).toBe('Paris is the capital of France.');
      expect(result.text).toBe('Paris is the capital of France.');
      expect(result.usage.promptTokens).toBeGreaterThan(0);
      expect(result.usage.completionTokens).toBeGreaterThan(0);
      expect(result.finishReason).toBe('stop');
    },
  );

  it.each(providers)('%s: a tool round trip streams too, and its call is traced', async (_, connection) => {
    const gateway = createLlmGateway();
    const calls: unknown[] = [];
    const trace = newLlmTrace();
    fake.script([
      { toolCalls: [{ name: 'lookup', arguments: { query: 'France' } }], content: 'Looking it up. ' },
      { content: 'It is Paris.' },
    ]);
    const pieces: string[] = [];
    const result = await gateway.generate(
      request({
        connection: connection(),
        tools: lookupTool(calls),
        trace,
        onTextDelta: (text) => pieces.push(text),
      }),
    );
    expect(calls).toEqual([{ query: 'France' }]);
    expect(result.text).toBe('It is Paris.');
    // What the model said before its tool call was shown as it came, then the answer.
    expect(pieces.join('')).toBe('Looking it up. It is Paris.');
    expect(result.steps[0].toolCalls).toEqual([{ name: 'lookup', args: { query: 'France' } }]);
    expect(trace.toolCalls).toMatchObject([{ name: 'lookup', result: { answer: 'Paris' }, isError: false }]);
    expect(result.usage.totalTokens).toBe(result.usage.promptTokens + result.usage.completionTokens);
  });

  it('tells onToolCall of each tool call as it finishes, before the answer, with or without a trace', async () => {
    for (const trace of [newLlmTrace(), undefined]) {
      const gateway = createLlmGateway();
      const heard: string[] = [];
      fake.script([
        { toolCalls: [{ name: 'lookup', arguments: { query: 'France' } }] },
        { content: 'It is Paris.' },
      ]);
      const result = await gateway.generate(
        request({
          tools: lookupTool([]),
          trace,
          onTextDelta: (text) => heard.push(`text ${text}`),
          onToolCall: (call) => heard.push(`tool ${JSON.stringify(call)}`),
        }),
      );
      expect(result.text).toBe('It is Paris.');
      const [first, ...rest] = heard;
      expect(JSON.parse(first.slice('tool '.length))).toMatchObject({
        name: 'lookup',
        args: { query: 'France' },
        result: { answer: 'Paris' },
        isError: false,
        durationMs: expect.any(Number),
      });
      expect(rest.join('')).toBe('text It text is text Paris.');
      // The trace, when there is one, records the same call.
      if (trace) expect(trace.toolCalls).toEqual([JSON.parse(first.slice('tool '.length))]);
    }
  });

  it('reports a refused call as the unstreamed one does, without the key', async () => {
    const gateway = createLlmGateway();
    fake.failNext(401, { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'x' } });
    const pieces: string[] = [];
    const error = (await gateway
      .generate(request({ onTextDelta: (text) => pieces.push(text) }))
      .catch((e: unknown) => e)) as LlmCallError;
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error.message).toMatch(/^OpenAI answered 401: Incorrect API key provided/);
    expect(error.message).not.toContain(KEY);
    expect(pieces).toEqual([]);
  });

  it('retries a 500 before the stream starts', async () => {
    const gateway = createLlmGateway();
    fake.failNext(500, undefined, 1, RETRY_NOW);
    fake.script([{ content: 'Recovered.' }]);
    const trace = newLlmTrace();
    const result = await gateway.generate(request({ trace, onTextDelta: () => undefined }));
    expect(result.text).toBe('Recovered.');
    expect(trace.retries).toBe(1);
  });

  it('times out in the middle of a slow answer', async () => {
    const gateway = createLlmGateway({ timeoutMs: 300 });
    fake.script([{ content: 'one two three four five six seven eight', chunkDelayMs: 100 }]);
    const pieces: string[] = [];
    const error = await gateway
      .generate(request({ onTextDelta: (text) => pieces.push(text) }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', message: 'OpenAI did not answer within 0.3 s' });
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.length).toBeLessThan(8);
  });

  it("stops when the caller's signal aborts mid-stream", async () => {
    const gateway = createLlmGateway();
    fake.script([{ content: 'one two three four five six', chunkDelayMs: 100 }]);
    const controller = new AbortController();
    const pieces: string[] = [];
    const error = await gateway
      .generate(
        request({
          signal: controller.signal,
          onTextDelta: (text) => {
            pieces.push(text);
            controller.abort();
          },
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'aborted', message: 'The call to OpenAI was cancelled' });
    expect(pieces).toEqual(['one ']);
  });
});

describe('LLM gateway: listModels', () => {
  it('lists OpenAI-compatible models with a Bearer key', async () => {
    const gateway = createLlmGateway();
    fake.setModels(['gpt-4o', 'o3-mini']);
    expect(await gateway.listModels({ provider: 'openai', apiKey: KEY, baseUrl: fake.url })).toEqual([
      'gpt-4o',
      'o3-mini',
    ]);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('lists Anthropic models with x-api-key and anthropic-version', async () => {
    const gateway = createLlmGateway();
    fake.setModels(['claude-sonnet-4-5']);
    expect(await gateway.listModels({ provider: 'anthropic', apiKey: KEY, baseUrl: fake.url })).toEqual([
      'claude-sonnet-4-5',
    ]);
    expect(fake.requests[0].headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
  });

  it('fails with LlmCallError on an HTTP error, without the key', async () => {
    const gateway = createLlmGateway();
    fake.failNext(401, { error: { message: `Bad key ${KEY}` } });
    const error = await gateway
      .listModels({ provider: 'openai', apiKey: KEY, baseUrl: fake.url })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as Error).message).toBe('OpenAI answered 401: Bad key [redacted]');
  });

  it('times out', async () => {
    const gateway = createLlmGateway({ listTimeoutMs: 100 });
    // A reply delay only applies to completions, so hold the listing with a server that never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const error = await gateway
        .listModels({ provider: 'custom', baseUrl: `http://127.0.0.1:${port}/v1` })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        kind: 'timeout',
        message: 'Custom (OpenAI-compatible) did not answer within 0.1 s',
      });
    } finally {
      silent.close();
    }
  });
});
