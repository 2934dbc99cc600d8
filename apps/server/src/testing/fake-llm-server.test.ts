import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, Output, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol bodies, read field by field
const json = (res: Response): Promise<any> => res.json();

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k', ...headers },
    body: JSON.stringify(body),
  });

describe('fake LLM server', () => {
  it('answers chat completions with an echo by default and records the request', async () => {
    const res = await post('/chat/completions', {
      model: 'm1',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
      ],
    });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.choices[0].message).toEqual({ role: 'assistant', content: 'Fake reply to: hello there' });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage).toEqual({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 });
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'm1' },
    });
    expect(fake.requests[0].headers.authorization).toBe('Bearer k');
  });

  it('streams SSE chunks, then usage with choices [], then [DONE]', async () => {
    fake.script([{ content: 'one two three' }]);
    const res = await post('/chat/completions', {
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text()).trim().split('\n\n');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')));
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('one two three');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 3 } });
  });

  it('sends tool calls in the OpenAI format', async () => {
    fake.script([{ toolCalls: [{ name: 'lookup', arguments: { q: 'a' } }] }]);
    const body = await json(
      await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.content).toBeNull();
    expect(body.choices[0].message.tool_calls).toEqual([
      { id: expect.any(String), type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
    ]);
  });

  it('answers Anthropic messages with text and tool_use blocks', async () => {
    fake.script([{ content: 'checking', toolCalls: [{ name: 'lookup', arguments: { q: 1 } }] }]);
    const res = await post(
      '/messages',
      { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(await res.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'text', text: 'checking' },
        { type: 'tool_use', name: 'lookup', input: { q: 1 } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: expect.any(Number) },
    });
  });

  it('lists models, fails on demand and requires keys when asked', async () => {
    fake.setModels(['a', 'b']);
    const list = await (await fetch(`${fake.url}/models`)).json();
    expect(list).toMatchObject({ object: 'list', data: [{ id: 'a', object: 'model' }, { id: 'b' }] });

    fake.failNext(503, undefined, 2);
    expect((await fetch(`${fake.url}/models`)).status).toBe(503);
    expect((await fetch(`${fake.url}/models`)).status).toBe(503);
    expect((await fetch(`${fake.url}/models`)).status).toBe(200);

    const strict = await startFakeLlmServer({ requireKey: 'secret' });
    try {
      const chat = (headers: Record<string, string>) =>
        fetch(`${strict.url}/chat/completions`, {
          method: 'POST',
          headers,
          body: '{"model":"m","messages":[{"role":"user","content":"x"}]}',
        });
      expect((await chat({})).status).toBe(401);
      expect((await chat({ authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await chat({ authorization: 'Bearer secret' })).status).toBe(200);
      const anthropic = await fetch(`${strict.url}/messages`, { method: 'POST', body: '{"messages":[]}' });
      expect(await anthropic.json()).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error' },
      });
    } finally {
      await strict.close();
    }
  });

  it('refuses what the real APIs refuse without a required field, in their error shapes', async () => {
    const user = [{ role: 'user', content: 'x' }];
    const refusal = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await post(path, body, headers);
      return { status: res.status, body: await json(res) };
    };

    expect(await refusal('/chat/completions', { messages: user })).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error', message: "Missing required parameter: 'model'." } },
    });
    expect((await refusal('/chat/completions', { model: 'm', messages: [] })).status).toBe(400);

    const version = { 'anthropic-version': '2023-06-01' };
    expect(await refusal('/messages', { model: 'c', max_tokens: 10, messages: user })).toMatchObject({
      status: 400,
      body: { type: 'error', error: { message: 'anthropic-version: header is required' } },
    });
    expect(await refusal('/messages', { model: 'c', messages: user }, version)).toMatchObject({
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens: Field required' },
      },
    });
    // A refused request does not use up a scripted reply.
    fake.script([{ content: 'kept' }]);
    await post('/chat/completions', { model: 'm' });
    const answer = await json(await post('/chat/completions', { model: 'm', messages: user }));
    expect(answer.choices[0].message.content).toBe('kept');
  });

  it('is driven over HTTP by the control API', async () => {
    const control = (path: string, body?: unknown) =>
      fetch(`${fake.url.replace(/\/v1$/, '')}/__control/${path}`, {
        method: 'POST',
        body: JSON.stringify(body ?? {}),
      });
    await control('script', { replies: [{ content: 'scripted' }] });
    const body = await json(
      await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(body.choices[0].message.content).toBe('scripted');
    const recorded = await (await control('requests')).json();
    expect(recorded).toHaveLength(1);
  });

  it('streams to the real AI SDK providers, usage included', async () => {
    const models = [
      createOpenAI({ apiKey: 'k', baseURL: fake.url }).chat('gpt-4o'),
      createOpenAICompatible({ name: 'local', baseURL: fake.url, includeUsage: true })('llama3.1:8b'),
      createAnthropic({ apiKey: 'k', baseURL: fake.url })('claude-sonnet-4-5'),
    ];
    for (const model of models) {
      fake.script([{ content: 'streamed reply here' }]);
      const result = streamText({ model, prompt: 'say it', maxRetries: 0 });
      expect(await result.text).toBe('streamed reply here');
      expect(await result.usage).toMatchObject({ inputTokens: 2, outputTokens: 3 });
    }
    expect(fake.requests.map((r) => [r.path, r.body.stream])).toEqual([
      ['/v1/chat/completions', true],
      ['/v1/chat/completions', true],
      ['/v1/messages', true],
    ]);
  });

  it('streams tool calls the AI SDK can parse', async () => {
    const lookup = tool({
      description: 'look up',
      inputSchema: jsonSchema<{ q: string }>({ type: 'object' }),
    });
    for (const model of [
      createOpenAI({ apiKey: 'k', baseURL: fake.url }).chat('gpt-4o'),
      createAnthropic({ apiKey: 'k', baseURL: fake.url })('claude-sonnet-4-5'),
    ]) {
      fake.script([{ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }]);
      const result = streamText({ model, prompt: 'go', tools: { lookup }, maxRetries: 0 });
      expect((await result.toolCalls).map((c) => [c.toolName, c.input])).toEqual([['lookup', { q: 'x' }]]);
      expect(await result.finishReason).toBe('tool-calls');
    }
  });

  it('runs standalone and prints its URL', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/testing/fake-llm-server.ts', '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const { value: url } = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect((await fetch(`${url}/models`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('fake LLM server: structured output', () => {
  const user = (content: string) => [{ role: 'user', content }];
  const strictFormat = (schema: unknown) => ({
    type: 'json_schema',
    json_schema: { name: 'response', strict: true, schema },
  });
  const ticket = {
    type: 'object',
    properties: {
      category: { type: 'string', enum: ['billing', 'bug', 'other'] },
      urgent: { type: 'boolean' },
      score: { type: 'number', minimum: 3 },
      count: { type: ['integer', 'null'] },
      tags: { type: 'array', items: { type: 'string' } },
      contact: {
        type: 'object',
        properties: { email: { type: 'string', format: 'email' }, since: { type: 'string', format: 'date' } },
        required: ['email', 'since'],
        additionalProperties: false,
      },
    },
    required: ['category', 'urgent', 'score', 'count', 'tags', 'contact'],
    additionalProperties: false,
  };
  const answerOf = async (prompt: string, schema: unknown = ticket) => {
    const body = await json(
      await post('/chat/completions', {
        model: 'm',
        messages: user(prompt),
        response_format: strictFormat(schema),
      }),
    );
    return JSON.parse(body.choices[0].message.content);
  };

  it('answers a JSON Schema request with JSON of that shape; an enum takes the value the prompt names', async () => {
    expect(await answerOf('Please look at this')).toEqual({
      category: 'billing',
      urgent: true,
      score: 3,
      count: 1,
      tags: ['Fake tags'],
      contact: { email: 'someone@example.com', since: '2026-01-01' },
    });
    expect((await answerOf('The export crashes: a bug, surely.')).category).toBe('bug');
    // A word, not a part of one: "debugging" is not "bug".
    expect((await answerOf('I am debugging my invoice')).category).toBe('billing');
  });

  it('answers a scripted value as the JSON answer, and scripted text as written (an answer that misses the schema)', async () => {
    fake.script([{ data: { category: 'other' } }, { content: 'Sorry, I cannot.' }]);
    expect(await answerOf('x')).toEqual({ category: 'other' });
    const body = await json(
      await post('/chat/completions', {
        model: 'm',
        messages: user('x'),
        response_format: strictFormat(ticket),
      }),
    );
    expect(body.choices[0].message.content).toBe('Sorry, I cannot.');
  });

  it('gives a reply scripted `when` to the request whose prompt contains it, whatever the order', async () => {
    fake.script([
      { when: 'ticket 2', data: { category: 'bug' } },
      { when: 'ticket 1', data: { category: 'billing' } },
      { content: 'for anyone' },
    ]);
    expect((await answerOf('This is ticket 1')).category).toBe('billing');
    const other = await json(await post('/chat/completions', { model: 'm', messages: user('hello') }));
    expect(other.choices[0].message.content).toBe('for anyone');
    expect((await answerOf('This is ticket 2')).category).toBe('bug');
  });

  it("refuses a strict schema OpenAI would refuse, in OpenAI's words and error shape", async () => {
    const refusal = async (schema: unknown) => {
      const res = await post('/chat/completions', {
        model: 'm',
        messages: user('x'),
        response_format: strictFormat(schema),
      });
      return { status: res.status, body: await json(res) };
    };
    const open = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(await refusal(open)).toEqual({
      status: 400,
      body: {
        error: {
          message:
            "Invalid schema for response_format 'response': In context=(), 'additionalProperties' is required to be supplied and to be false.",
          type: 'invalid_request_error',
          param: 'response_format',
          code: null,
        },
      },
    });
    const optional = { ...open, required: [], additionalProperties: false };
    expect((await refusal(optional)).body.error.message).toBe(
      "Invalid schema for response_format 'response': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'a'.",
    );
    const nested = {
      type: 'object',
      properties: { who: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      required: ['who'],
      additionalProperties: false,
    };
    expect((await refusal(nested)).body.error.message).toContain(
      "In context=('properties', 'who'), 'additionalProperties' is required",
    );
    expect((await refusal({ type: 'array', items: {} })).body.error.message).toBe(
      `Invalid schema for response_format 'response': schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`,
    );
    // Not strict: taken as it is.
    const loose = await post('/chat/completions', {
      model: 'm',
      messages: user('x'),
      response_format: { type: 'json_schema', json_schema: { name: 'r', strict: false, schema: open } },
    });
    expect(loose.status).toBe(200);
    expect(fake.requests).toHaveLength(5);
  });

  it('answers Anthropic output_config.format and the JSON tool, and refuses an open object as Anthropic does', async () => {
    const anthropic = (body: Record<string, unknown>) =>
      post(
        '/messages',
        { model: 'c', max_tokens: 100, messages: user('a bug'), ...body },
        {
          'anthropic-version': '2023-06-01',
        },
      );
    const native = await json(
      await anthropic({ output_config: { format: { type: 'json_schema', schema: ticket } } }),
    );
    expect(native.content).toHaveLength(1);
    expect(JSON.parse(native.content[0].text).category).toBe('bug');

    const viaTool = await json(
      await anthropic({
        tools: [{ name: 'json', description: 'Respond with a JSON object.', input_schema: ticket }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
      }),
    );
    expect(viaTool.stop_reason).toBe('tool_use');
    expect(viaTool.content[0]).toMatchObject({ type: 'tool_use', name: 'json', input: { category: 'bug' } });

    const refused = await anthropic({
      output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } },
    });
    expect(refused.status).toBe(400);
    expect((await json(refused)).error.message).toBe(
      "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false",
    );
  });

  it("answers the AI SDK's structured output for each provider, streamed or not", async () => {
    const schema = jsonSchema<{ category: string }>({
      type: 'object',
      properties: { category: { type: 'string', enum: ['billing', 'bug'] } },
      required: ['category'],
      additionalProperties: false,
    });
    const models = [
      createOpenAI({ apiKey: 'k', baseURL: fake.url }).chat('gpt-4o'),
      createOpenAICompatible({ name: 'local', baseURL: fake.url, supportsStructuredOutputs: true })(
        'llama3.1:8b',
      ),
      createAnthropic({ apiKey: 'k', baseURL: fake.url })('claude-sonnet-4-5'),
      createAnthropic({ apiKey: 'k', baseURL: fake.url })('claude-3-5-haiku-20241022'),
    ];
    for (const model of models) {
      const options = {
        model,
        prompt: 'A bug report',
        output: Output.object({ schema }),
        maxRetries: 0,
        maxOutputTokens: 100,
      };
      expect((await generateText(options)).output).toEqual({ category: 'bug' });
      expect(await streamText(options).output).toEqual({ category: 'bug' });
    }
  });
});
