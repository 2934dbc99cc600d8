import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { LlmCallError, LlmConfigurationError } from './errors';
import { createLlmGateway } from './gateway';
import { newLlmTrace, type LlmConnection, type LlmRequest } from './types';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const KEY = 'sk-test-0123456789abcdef';
const openai = (): LlmConnection => ({ provider: 'openai', apiKey: KEY, baseUrl: fake.url });
const anthropic = (): LlmConnection => ({ provider: 'anthropic', apiKey: KEY, baseUrl: fake.url });
const custom = (): LlmConnection => ({ provider: 'custom', baseUrl: fake.url });

/** A triage schema as a user writes it: `priority` optional, no additionalProperties. */
const triage = {
  type: 'object' as const,
  properties: {
    category: { type: 'string' as const, enum: ['billing', 'bug', 'other'] },
    priority: { type: 'integer' as const, minimum: 1, maximum: 3 },
  },
  required: ['category'],
};

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    connection: openai(),
    model: 'gpt-4o',
    temperaturePercent: 0,
    maxTokens: 500,
    system: 'You triage support tickets.',
    messages: [{ role: 'user', content: 'I was charged twice: a billing problem.' }],
    outputSchema: triage,
    ...overrides,
  };
}

const lookupTool = (calls: unknown[]) => ({
  lookup: {
    description: 'Look the customer up',
    inputSchema: {
      type: 'object' as const,
      properties: { email: { type: 'string' as const } },
      required: ['email'],
    },
    execute: async (args: unknown) => {
      calls.push(args);
      return { plan: 'Team', invoices: 2 };
    },
  },
});

describe('LLM gateway: structured output', () => {
  it('asks OpenAI for the shape in strict mode, optional fields as nullable, and returns the parsed answer', async () => {
    const gateway = createLlmGateway();
    const result = await gateway.generate(request());

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            category: { type: 'string', enum: ['billing', 'bug', 'other'] },
            priority: { type: ['integer', 'null'], minimum: 1, maximum: 3 },
          },
          required: ['category', 'priority'],
          additionalProperties: false,
        },
      },
    });
    // The fake picks the enum value the prompt names; its 1 for priority passes the range.
    expect(result.data).toEqual({ category: 'billing', priority: 1 });
    expect(JSON.parse(result.text)).toEqual(result.data);
  });

  it('takes the null a model gives for an optional field out of the answer', async () => {
    const gateway = createLlmGateway();
    fake.script([{ data: { category: 'bug', priority: null } }]);
    const result = await gateway.generate(request());
    expect(result.data).toEqual({ category: 'bug' });
  });

  it('sends a schema that cannot be strict (an open object) as not strict, and the answer is still checked', async () => {
    const gateway = createLlmGateway();
    const open = {
      type: 'object' as const,
      properties: { tags: { type: 'object' as const, additionalProperties: true } },
    };
    fake.script([{ data: { tags: { a: 1 } } }]);
    const result = await gateway.generate(request({ outputSchema: open }));
    expect(fake.requests[0].body.response_format.json_schema).toMatchObject({ strict: false, schema: open });
    expect(result.data).toEqual({ tags: { a: 1 } });
  });

  it('asks again once with the problem when the answer does not follow the schema, and sums both calls', async () => {
    const gateway = createLlmGateway();
    const trace = newLlmTrace();
    fake.script([{ data: { category: 'refund' } }, { data: { category: 'billing', priority: 2 } }]);

    const result = await gateway.generate(request({ trace }));

    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1].body.messages;
    // The first answer is part of the conversation, then what was wrong with it.
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: '{"category":"refund"}' });
    expect(retry.at(-1).role).toBe('user');
    expect(retry.at(-1).content).toContain(
      '"category" must be one of "billing", "bug", "other" (it was "refund")',
    );
    expect(result.data).toEqual({ category: 'billing', priority: 2 });
    expect(result.text).toBe('{"category":"billing","priority":2}');
    expect(trace).toMatchObject({ requests: 2, retries: 0, outputRetries: 1 });
    // Each call's prompt counts: the second one repeats the first and adds to it.
    const [first, second] = fake.requests.map((r) =>
      r.body.messages.reduce((n: number, m: { content: string }) => n + m.content.split(/\s+/).length, 0),
    );
    expect(result.usage.promptTokens).toBe(first + second);
    expect(result.usage.totalTokens).toBe(result.usage.promptTokens + result.usage.completionTokens);
  });

  it('asks again when the answer is not JSON at all', async () => {
    const gateway = createLlmGateway();
    fake.script([{ content: 'It is a billing question.' }, { data: { category: 'billing' } }]);
    const result = await gateway.generate(request());
    expect(fake.requests[1].body.messages.at(-1).content).toContain('the answer is not JSON');
    expect(result.data).toEqual({ category: 'billing' });
  });

  it('fails readably on a second mismatch, naming the problem, with the trace kept', async () => {
    const gateway = createLlmGateway();
    const trace = newLlmTrace();
    fake.script([{ data: { category: 'refund' } }, { data: { priority: 2 } }]);

    const failure = gateway.generate(request({ trace })).catch((error: unknown) => error);
    const error = (await failure) as LlmCallError;

    expect(error).toBeInstanceOf(LlmCallError);
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(
      'OpenAI\'s answer did not follow the output schema, even when asked again: the answer is missing the required field "category"' +
        ' (the first answer: "category" must be one of "billing", "bug", "other" (it was "refund"))',
    );
    expect(fake.requests).toHaveLength(2);
    expect(trace).toMatchObject({ requests: 2, outputRetries: 1, retries: 0 });
  });

  it('runs the tools first and asks for the shape of the final answer; the retry keeps the tool results', async () => {
    const gateway = createLlmGateway();
    const calls: unknown[] = [];
    fake.script([
      { toolCalls: [{ name: 'lookup', arguments: { email: 'ada@example.com' } }] },
      { content: 'The customer is on Team.' },
      { data: { category: 'billing', priority: 3 } },
    ]);

    const result = await gateway.generate(request({ tools: lookupTool(calls) }));

    expect(calls).toEqual([{ email: 'ada@example.com' }]);
    expect(fake.requests).toHaveLength(3);
    for (const sent of fake.requests) {
      expect(sent.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['lookup']);
      expect(sent.body.response_format.type).toBe('json_schema');
    }
    // The retry is sent after the tool call and its result, so the model need not call it again.
    const retry = fake.requests[2].body.messages;
    expect(retry.some((m: { role: string }) => m.role === 'tool')).toBe(true);
    expect(result.data).toEqual({ category: 'billing', priority: 3 });
    expect(result.steps.map((s) => s.toolCalls.map((c) => c.name))).toEqual([['lookup'], [], []]);
  });

  it('streams a structured answer too', async () => {
    const gateway = createLlmGateway();
    const pieces: string[] = [];
    fake.script([{ data: { category: 'bug', priority: 1 } }]);
    const result = await gateway.generate(request({ onTextDelta: (text) => pieces.push(text) }));
    expect(fake.requests[0].body.stream).toBe(true);
    expect(pieces.join('')).toBe('{"category":"bug","priority":1}');
    expect(result.data).toEqual({ category: 'bug', priority: 1 });
  });

  it('retries a streamed mismatch the same way', async () => {
    const gateway = createLlmGateway();
    fake.script([{ content: 'not json' }, { data: { category: 'other' } }]);
    const result = await gateway.generate(request({ onTextDelta: () => undefined }));
    expect(fake.requests).toHaveLength(2);
    expect(result.data).toEqual({ category: 'other' });
  });

  it('asks a custom OpenAI-compatible server with response_format json_schema', async () => {
    const gateway = createLlmGateway();
    const result = await gateway.generate(
      request({
        connection: custom(),
        model: 'llama3',
        messages: [{ role: 'user', content: 'Crash: a bug' }],
      }),
    );
    expect(fake.requests[0].body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { strict: true, schema: { additionalProperties: false } },
    });
    expect(result.data).toEqual({ category: 'bug', priority: 1 });
  });

  it('asks Anthropic with output_config.format, and a model without it with the JSON tool', async () => {
    const gateway = createLlmGateway();
    const native = await gateway.generate(request({ connection: anthropic(), model: 'claude-sonnet-4-5' }));
    expect(fake.requests[0].body.output_config.format).toMatchObject({
      type: 'json_schema',
      schema: { type: 'object', additionalProperties: false, required: ['category'] },
    });
    expect(native.data).toEqual({ category: 'billing', priority: 1 });

    fake.reset();
    fake.script([{ data: { category: 'bug' } }]);
    const tool = await gateway.generate(
      request({ connection: anthropic(), model: 'claude-3-5-haiku-20241022', maxTokens: 1000 }),
    );
    const sent = fake.requests[0].body;
    expect(sent.output_config).toBeUndefined();
    expect(sent.tools.map((t: { name: string }) => t.name)).toEqual(['json']);
    expect(sent.tool_choice.type).toBe('any');
    expect(tool.data).toEqual({ category: 'bug' });
    expect(tool.text).toBe('{"category":"bug"}');
  });

  it('refuses a schema that does not describe an object, before calling the model', async () => {
    const gateway = createLlmGateway();
    await expect(
      gateway.generate(request({ outputSchema: { type: 'array', items: { type: 'string' } } })),
    ).rejects.toThrow(
      new LlmConfigurationError('The output schema must describe an object ("type": "object").'),
    );
    await expect(
      gateway.generate(
        request({ outputSchema: { type: 'object', properties: { a: { type: 'strnig' } } } as never }),
      ),
    ).rejects.toThrow(/^The output schema is not a valid JSON Schema: /);
    expect(fake.requests).toHaveLength(0);
  });

  it('leaves a call without a schema as it was: no response format, no data', async () => {
    const gateway = createLlmGateway();
    const result = await gateway.generate(request({ outputSchema: undefined }));
    expect(fake.requests[0].body.response_format).toBeUndefined();
    expect(result).not.toHaveProperty('data');
    expect(result.text).toBe('Fake reply to: I was charged twice: a billing problem.');
  });
});
