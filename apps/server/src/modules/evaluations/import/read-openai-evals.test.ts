import { readFileSync } from 'node:fs';
import path from 'node:path';
import { graderSchema } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { readDatasetFile } from './read-dataset-file';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const exportFile = fixture('openai-evals-export.json');
const itemsFile = fixture('openai-evals-items.jsonl');

const failure = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

const read = await readDatasetFile('application/json', JSON.parse(exportFile), {});

describe('an OpenAI Evals export (application/json)', () => {
  it("takes the field the graders compare with (item.ideal) as each item's expected answer, the rest as its input", () => {
    expect(read.format).toBe('openai_evals');
    expect(read.columns).toEqual(['question', 'ideal', 'category']);
    expect(read.items).toEqual([
      {
        input: { question: 'How long do I have to return a pair of shoes?', category: 'returns' },
        expected: 'You can return unworn shoes within 30 days of delivery.',
        tags: [],
      },
      {
        input: { question: 'When will my refund arrive?', category: 'refunds' },
        expected: 'Refunds reach your card 5 to 10 business days after we receive the return.',
        tags: [],
      },
      {
        input: { question: 'Can I get a refund for a gift card?', category: 'refunds' },
        expected: 'Gift cards cannot be refunded.',
        tags: [],
      },
      {
        input: { question: 'Do you refund the shipping cost?', category: 'refunds' },
        expected: 'We refund shipping when the item arrived damaged or was not what you ordered.',
        tags: [],
      },
      {
        input: { question: 'I returned the wrong item, what now?', category: 'returns' },
        expected: 'Contact us with your order number and we will send the item back at no cost.',
        tags: [],
      },
    ]);
  });

  it("converts the graders Crewline has, reading the run's answer and the item's expected answer", () => {
    expect(read.graders).toEqual([
      { type: 'exact', name: 'Exact answer', caseSensitive: true },
      { type: 'contains', name: 'Mentions the refund window', caseSensitive: false, expected: '30 days' },
      { type: 'similarity', name: 'Close to the ideal answer', threshold: 0.85 },
      {
        type: 'llm_judge',
        name: 'Helpfulness',
        scale: '1-5',
        provider: 'openai',
        model: 'gpt-4o-mini',
        rubric:
          'You grade customer support answers for helpfulness on a scale from 1 to 5.\n\n' +
          "Question: the input's question\nReference answer: the expected answer\nAnswer to grade: the answer",
        // A pass at 4 of 1–5 is a score of (4 − 1) / 4.
        threshold: 0.75,
      },
      {
        type: 'llm_judge',
        name: 'Tone',
        scale: 'pass_fail',
        provider: 'openai',
        model: 'gpt-4o',
        rubric:
          'Classify the tone of the support answer as polite, neutral or rude.\n\nthe answer\n\n' +
          'Pass when the label is one of: polite, neutral.',
      },
    ]);
    for (const grader of read.graders) expect(() => graderSchema.parse(grader)).not.toThrow();
  });

  it('says which graders were not taken over, and why', () => {
    expect(read.skipped).toEqual([
      `Grader 'Not a refusal' (string_check, ne): Crewline has no "not equal" grader`,
      "Grader 'BLEU against the ideal answer' (text_similarity, bleu): Crewline has no BLEU grader",
      "Grader 'Short enough' (python): Crewline has no Python grader",
    ]);
  });

  it('reads the same export sent as text', async () => {
    expect(await readDatasetFile('application/json; charset=utf-8', exportFile, {})).toEqual(read);
  });

  it('reads { testing_criteria, items } with unwrapped items, and a bare list of items', async () => {
    const document = {
      testing_criteria: [
        {
          type: 'string_check',
          name: 'Same city',
          input: '{{sample.output_text}}',
          reference: '{{item.city}}',
          operation: 'like',
        },
      ],
      items: [{ country: 'France', city: 'Paris' }, { item: { country: 'Japan', city: 'Tokyo' } }],
    };
    const read = await readDatasetFile('application/json', document, {});
    expect(read.items).toEqual([
      { input: { country: 'France' }, expected: 'Paris', tags: [] },
      { input: { country: 'Japan' }, expected: 'Tokyo', tags: [] },
    ]);
    expect(read.graders).toEqual([{ type: 'contains', name: 'Same city', caseSensitive: true }]);

    const list = await readDatasetFile('application/json', [{ item: { q: 'Hi', answer: 'Hello' } }], {});
    expect(list).toMatchObject({ format: 'openai_evals', graders: [], skipped: [] });
    expect(list.items).toEqual([{ input: { q: 'Hi' }, expected: 'Hello', tags: [] }]);
  });

  it('keeps the whole item as input when no grader has a reference', async () => {
    const read = await readDatasetFile(
      'application/json',
      {
        eval: {
          name: 'Tone only',
          testing_criteria: [
            { type: 'python', name: 'Custom', source: 'def grade(s, i): return 1' },
            {
              type: 'score_model',
              name: 'Clarity',
              model: 'o3-mini',
              input: [{ role: 'user', content: 'Rate the clarity of {{sample.output_text}} from 0 to 1.' }],
              pass_threshold: 0.6,
            },
          ],
        },
        items: [{ item: { prompt: 'Explain DNS', ideal: 'A phone book for the internet' } }],
      },
      {},
    );
    expect(read.items).toEqual([
      { input: { prompt: 'Explain DNS', ideal: 'A phone book for the internet' }, tags: [] },
    ]);
    expect(read.graders).toEqual([
      {
        type: 'llm_judge',
        name: 'Clarity',
        scale: '1-5',
        provider: 'openai',
        model: 'o3-mini',
        rubric: 'Rate the clarity of the answer from 0 to 1.',
      },
    ]);
    expect(read.skipped).toEqual([
      "Grader 'Custom' (python): Crewline has no Python grader",
      "Grader 'Clarity' (score_model): its pass threshold 0.6 on the range 0–1 was not taken over (the judge scores 1–5 and passes at its default)",
    ]);
  });

  it('passes over graders it cannot carry over faithfully', async () => {
    const answer = '{{sample.output_text}}';
    const read = await readDatasetFile(
      'application/json',
      {
        testing_criteria: [
          {
            type: 'string_check',
            name: 'Right field',
            input: answer,
            reference: '{{item.a}}',
            operation: 'eq',
          },
          {
            type: 'text_similarity',
            name: 'Strict',
            input: answer,
            reference: '{{item.a}}',
            evaluation_metric: 'cosine',
            pass_threshold: 1.2,
          },
          {
            type: 'string_check',
            name: 'Wildcard',
            input: answer,
            reference: 'refund%days',
            operation: 'like',
          },
          {
            type: 'string_check',
            name: 'Other field',
            input: answer,
            reference: '{{item.alt}}',
            operation: 'eq',
          },
          { type: 'string_check', name: 'Mixed', input: answer, reference: 'A: {{item.a}}', operation: 'eq' },
          { type: 'string_check', name: 'Wrong side', input: '{{item.q}}', reference: 'x', operation: 'eq' },
          {
            type: 'text_similarity',
            name: 'Fuzzy',
            input: answer,
            reference: 'x',
            evaluation_metric: 'fuzzy_match',
          },
          {
            type: 'text_similarity',
            name: 'Rouge',
            input: answer,
            reference: 'x',
            evaluation_metric: 'rouge_l',
          },
          {
            type: 'label_model',
            name: 'No pass',
            model: 'gpt-4o',
            input: [],
            labels: ['a'],
            passing_labels: [],
          },
          { type: 'multi', name: 'Both', graders: {}, calculate_output: 'a + b' },
          { type: 'endpoint', url: 'https://example.com' },
        ],
        items: [{ item: { q: 'Why?', a: 'Because', alt: 'So' } }],
      },
      {},
    );
    expect(read.graders).toEqual([
      { type: 'exact', name: 'Right field', caseSensitive: true },
      { type: 'similarity', name: 'Strict' },
    ]);
    expect(read.items).toEqual([{ input: { q: 'Why?', alt: 'So' }, expected: 'Because', tags: [] }]);
    expect(read.skipped).toEqual([
      "Grader 'Strict' (text_similarity, cosine): its pass threshold 1.2 is not between 0 and 1, the grader passes at its default",
      `Grader 'Wildcard' (string_check, like): its reference has % wildcards, which Crewline's "contains" does not read`,
      "Grader 'Other field' (string_check, eq): it compares with item.alt, and the items' expected answer is item.a",
      "Grader 'Mixed' (string_check, eq): its reference mixes text and templates",
      "Grader 'Wrong side' (string_check, eq): it checks {{item.q}} rather than the answer",
      "Grader 'Fuzzy' (text_similarity, fuzzy_match): Crewline has no fuzzy match grader",
      "Grader 'Rouge' (text_similarity, rouge_l): Crewline has no ROUGE-L grader",
      "Grader 'No pass' (label_model): it names no passing labels",
      "Grader 'Both' (multi): Crewline has no grader that combines other graders",
      'Grader 11 (endpoint): Crewline has no grader of this kind',
    ]);
  });

  it('refuses a JSON document that is not an export, and an export without items', async () => {
    expect((await failure(() => readDatasetFile('application/json', { name: 'x' }, {}))).message).toBe(
      'This file cannot be imported: it is not an OpenAI Evals export (an object with testing_criteria and items, or a list of items)',
    );
    expect(
      (await failure(() => readDatasetFile('application/json', { testing_criteria: [], items: [] }, {})))
        .message,
    ).toBe('This file cannot be imported: it holds no items');
    expect((await failure(() => readDatasetFile('application/json', '{"items": [', {}))).message).toBe(
      'This file cannot be imported: it is not valid JSON',
    );
  });
});

describe('an OpenAI Evals data file (JSONL of { item, sample })', () => {
  it('takes each item, its "ideal" field as the expected answer, and leaves the samples out', async () => {
    const read = await readDatasetFile('application/jsonl', itemsFile, { tags: 'category' });
    expect(read.format).toBe('openai_evals');
    expect(read.columns).toEqual(['question', 'ideal', 'category']);
    expect(read.graders).toEqual([]);
    expect(read.items).toHaveLength(6);
    expect(read.items[0]).toEqual({
      input: { question: 'How long do I have to return a pair of shoes?' },
      expected: 'You can return unworn shoes within 30 days of delivery.',
      tags: ['returns'],
    });
    expect(read.items[5]).toEqual({
      input: { question: 'Which address do I send returns to?' },
      expected: { street: '12 Harbour Road', city: 'Leeds', postcode: 'LS1 4AB' },
      tags: ['returns', 'shipping'],
    });
    expect(read.skipped).toEqual(["The items' samples (answers a model gave on OpenAI) were left out"]);
  });
});
