import { STEP_RETRIEVAL_EXCERPT_LIMIT, STEP_TOOL_RESULT_LIMIT } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { excerpt, toolCall } from './step-record';

const trace = (args: unknown, result: unknown = 'ok') => ({
  name: 'notes_1234abcd',
  args,
  result,
  isError: false,
  durationMs: 12.4,
});

describe('a tool call as a step records it', () => {
  it('keeps arguments as the model wrote them, and cuts a result past the limit', () => {
    const call = toolCall(trace({ path: 'a.txt' }, 'x'.repeat(STEP_TOOL_RESULT_LIMIT + 10)));
    expect(call).toMatchObject({ arguments: { path: 'a.txt' }, truncated: true, durationMs: 12 });
    expect(call.result).toHaveLength(STEP_TOOL_RESULT_LIMIT);
    expect(toolCall(trace(undefined)).arguments).toEqual({});
  });

  it('stores the start of arguments longer than the limit, as text marked cut', () => {
    const content = 'y'.repeat(STEP_TOOL_RESULT_LIMIT * 3);
    const call = toolCall(trace({ operation: 'write', path: 'big.txt', content }));
    expect(typeof call.arguments).toBe('string');
    const text = call.arguments as string;
    expect(text.startsWith('{"operation":"write","path":"big.txt","content":"yyy')).toBe(true);
    expect(text).toHaveLength(STEP_TOOL_RESULT_LIMIT + 1);
    expect(text.endsWith('…')).toBe(true);
  });
});

/** A passage of about `length` characters: words, with line breaks as a Markdown file has them. */
const passage = (topic: string, length: number) => {
  const words: string[] = [];
  while (words.join(' ').length < length) words.push(words.length % 12 === 11 ? `${topic}\n\n` : topic);
  return words.join(' ');
};

describe('a knowledge search as a step records it', () => {
  const answer = {
    query: 'when are refunds paid back',
    hits: [1, 2, 3, 4, 5].map((n) => ({
      source: n === 1 ? 'faq.md' : `doc-${n}.pdf`,
      passage: n,
      score: 1 - n / 10,
      text: passage(`refund${n}`, 1000),
    })),
  };

  it('keeps every hit of an answer longer than the result limit, each with an excerpt', () => {
    const call = toolCall({ ...trace({ query: answer.query }, answer), name: 'search_support_faq_1a2b3c4d' });
    expect(call.truncated).toBe(true);
    expect(call.result).toHaveLength(STEP_TOOL_RESULT_LIMIT);
    expect(call.retrieval?.query).toBe('when are refunds paid back');
    expect(call.retrieval?.hits).toHaveLength(5);
    expect(call.retrieval?.hits[0]).toMatchObject({ source: 'faq.md', passage: 1, score: 0.9 });
    expect(call.retrieval?.hits.map((hit) => hit.source)).toEqual([
      'faq.md',
      'doc-2.pdf',
      'doc-3.pdf',
      'doc-4.pdf',
      'doc-5.pdf',
    ]);
    for (const hit of call.retrieval!.hits) {
      expect(hit.excerpt.length).toBeLessThanOrEqual(STEP_RETRIEVAL_EXCERPT_LIMIT);
      expect(hit.excerpt.endsWith('…')).toBe(true);
      expect(hit.excerpt).not.toContain('\n');
      // Whole words only: the excerpt ends with one of the passage's words.
      expect(hit.excerpt).toMatch(/ refund\d…$/);
    }
    // The record stays small: far less than the passages' 5,000 characters.
    expect(JSON.stringify(call.retrieval).length).toBeLessThan(2000);
  });

  it('keeps a short passage whole, and a hit without a passage number without one', () => {
    const call = toolCall(
      trace(
        { query: 'pricing' },
        { query: 'pricing', hits: [{ source: 'pricing-page', score: 0.87, text: 'Plans start\nat 9 EUR.' }] },
      ),
    );
    expect(call.retrieval).toEqual({
      query: 'pricing',
      hits: [{ source: 'pricing-page', score: 0.87, excerpt: 'Plans start at 9 EUR.' }],
    });
  });

  it('gives no retrieval to other tools, to failed calls or to answers of another shape', () => {
    expect(toolCall(trace({ path: 'a.txt' }, 'file written')).retrieval).toBeUndefined();
    expect(toolCall(trace({}, { query: 'x', results: [] })).retrieval).toBeUndefined();
    expect(
      toolCall(trace({}, { query: 'x', hits: [{ source: 'a', score: 'high' }] })).retrieval,
    ).toBeUndefined();
    expect(toolCall({ ...trace({}, { query: 'x', hits: [] }), isError: true }).retrieval).toBeUndefined();
    expect(toolCall(trace({}, { query: 'x', hits: [] })).retrieval).toEqual({ query: 'x', hits: [] });
  });
});

describe('an excerpt', () => {
  it('is cut at a whole word, with an ellipsis, within the limit', () => {
    expect(excerpt('one two three four', 12)).toBe('one two…');
    expect(excerpt('short text', 12)).toBe('short text');
    expect(excerpt('a sentence ends. Then another one', 20)).toBe('a sentence ends…');
    expect(excerpt('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
