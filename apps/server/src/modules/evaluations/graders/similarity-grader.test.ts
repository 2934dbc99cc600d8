import { graderSchema } from '@crewline/contracts';
import type { GradingContext } from '@crewline/engine';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLlmGateway } from '../../../platform/llm';
import { fakeEmbedding, startFakeLlmServer, type FakeLlmServer } from '../../../testing/fake-llm-server';
import { gradeItem, type GradingPorts } from './grade-item';
import { cosine } from './similarity-grader';

function context(result: unknown, expected: unknown): GradingContext {
  return {
    run: {
      id: 'r',
      status: 'completed',
      result,
      output: {},
      input: {},
      costUsd: 0,
      durationMs: 10,
      error: null,
    },
    nodes: {},
    input: {},
    item: { input: {}, expected, tags: [] },
  };
}

describe('semantic similarity against the fake model server', () => {
  let fake: FakeLlmServer;
  let ports: GradingPorts;
  beforeAll(async () => {
    fake = await startFakeLlmServer();
    ports = {
      llm: createLlmGateway({ maxRetries: 0 }),
      connectionFor: async (_organizationId, provider) => ({ provider, apiKey: 'test', baseUrl: fake.url }),
      meter: { organizationId: 'org-1', source: 'evaluation' },
    };
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const similarity = graderSchema.parse({ type: 'similarity' });

  it('passes equal texts, embedding both in one request with the default model', async () => {
    const graded = await gradeItem(
      [similarity],
      1,
      context('Refunds take five days.', 'Refunds take five days.'),
      ports,
    );
    expect(graded.grades[0]).toMatchObject({ type: 'similarity', name: 'Semantic similarity', passed: true });
    expect(graded.grades[0].score).toBeCloseTo(1);
    expect(graded.grades[0].reason).toBe('Similarity 1 (needs 0.8)');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].path).toBe('/v1/embeddings');
    expect(fake.requests[0].body).toMatchObject({
      model: 'text-embedding-3-small',
      input: ['Refunds take five days.', 'Refunds take five days.'],
    });
  });

  it("scores other texts as the model's vectors say", async () => {
    const answer = 'Refunds take five business days to reach your card.';
    const expected = 'Your refund reaches your card within five days.';
    const expectedScore = cosine(fakeEmbedding(answer), fakeEmbedding(expected));
    expect(expectedScore).toBeGreaterThan(0.3);
    expect(expectedScore).toBeLessThan(0.8);

    const graded = await gradeItem([similarity], 1, context(answer, expected), ports);
    expect(graded.grades[0].score).toBeCloseTo(expectedScore, 5);
    expect(graded.grades[0].passed).toBe(false);

    const lenient = graderSchema.parse({ type: 'similarity', threshold: 0.3 });
    expect((await gradeItem([lenient], 1, context(answer, expected), ports)).passed).toBe(true);

    const unrelated = await gradeItem(
      [similarity],
      1,
      context('The cat sleeps.', 'Invoices are due monthly.'),
      ports,
    );
    expect(unrelated.grades[0].score).toBeLessThan(0.1);
  });

  it('gives a failed grade when the embeddings cannot be had, and embeds nothing for an empty answer', async () => {
    fake.failNext(500, undefined, 1);
    const failed = await gradeItem([similarity], 1, context('Paris', 'Paris'), ports);
    expect(failed.grades[0]).toMatchObject({ score: 0, passed: false });
    expect(failed.grades[0].reason).toMatch(/^OpenAI answered 500/);

    fake.reset();
    const empty = await gradeItem([similarity], 1, context('  ', 'Paris'), ports);
    expect(empty.grades[0]).toMatchObject({ score: 0, reason: 'The answer is empty' });
    expect(fake.requests).toHaveLength(0);
  });
});
