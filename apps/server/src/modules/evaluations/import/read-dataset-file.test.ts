import { DATASET_MAX_ITEMS } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../platform/errors';
import { readDatasetFile } from './read-dataset-file';

const failure = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return (error as Error).message;
  }
  throw new Error('expected a failure');
};
const csv = (...lines: string[]) => lines.join('\r\n');
const jsonl = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join('\n');

describe('readDatasetFile: CSV', () => {
  it('puts every column into the input, and a column named like "Expected" is the expected answer', async () => {
    const read = await readDatasetFile(
      'text/csv',
      csv(
        'question,language,Expected',
        'Where is my order?,en,Tracking link',
        'Wo ist mein Paket?,de,Sendungslink',
      ),
      {},
    );
    expect(read).toEqual({
      format: 'csv',
      columns: ['question', 'language', 'Expected'],
      items: [
        { input: { question: 'Where is my order?', language: 'en' }, expected: 'Tracking link', tags: [] },
        { input: { question: 'Wo ist mein Paket?', language: 'de' }, expected: 'Sendungslink', tags: [] },
      ],
      graders: [],
      skipped: [],
    });
  });

  it('guesses no expected answer when the import says there is none (`expected=`)', async () => {
    const read = await readDatasetFile('text/csv', csv('question,answer', 'Why?,Because'), { expected: '' });
    expect(read.items).toEqual([{ input: { question: 'Why?', answer: 'Because' }, tags: [] }]);
  });

  it('takes the expected and tags columns the import names, and leaves the ignored ones out', async () => {
    const read = await readDatasetFile(
      'text/csv',
      csv(
        'id,prompt,reply,labels,notes',
        '1,Hi,Hello,"greeting; short",x',
        '2,Bye,Goodbye,"farewell, short, short",y',
      ),
      { expected: 'reply', tags: 'labels', ignore: 'id, notes' },
    );
    expect(read.items).toEqual([
      { input: { prompt: 'Hi' }, expected: 'Hello', tags: ['greeting', 'short'] },
      { input: { prompt: 'Bye' }, expected: 'Goodbye', tags: ['farewell', 'short'] },
    ]);
    expect(read.columns).toEqual(['id', 'prompt', 'reply', 'labels', 'notes']);
  });

  it('reads quoted cells with commas, quotes and line breaks, CRLF line endings and a byte-order mark', async () => {
    const read = await readDatasetFile(
      'text/csv; charset=utf-8',
      '\uFEFFprompt,answer\r\n"Say ""hi"", then\r\nwave",Hi\r\n\r\nplain,"a, b"\r\n',
      {},
    );
    expect(read.columns).toEqual(['prompt', 'answer']);
    expect(read.items).toEqual([
      { input: { prompt: 'Say "hi", then\r\nwave' }, expected: 'Hi', tags: [] },
      { input: { prompt: 'plain' }, expected: 'a, b', tags: [] },
    ]);
  });

  it('reads JSON in the expected column as JSON, keeps it as text elsewhere, and an empty expected cell is none', async () => {
    const read = await readDatasetFile(
      'text/csv',
      csv(
        'payload,expected',
        '"{""id"": 7}","{""status"": ""ok"", ""ids"": [1, 2]}"',
        '"[1,2]","[""a""]"',
        'plain,',
        'braces,{not json}',
      ),
      {},
    );
    expect(read.items).toEqual([
      { input: { payload: '{"id": 7}' }, expected: { status: 'ok', ids: [1, 2] }, tags: [] },
      { input: { payload: '[1,2]' }, expected: ['a'], tags: [] },
      { input: { payload: 'plain' }, tags: [] },
      { input: { payload: 'braces' }, expected: '{not json}', tags: [] },
    ]);
  });

  it('passes over rows with more cells than the header, and fills short rows with empty cells', async () => {
    const read = await readDatasetFile('text/csv', csv('a,b,c', '1,2,3', '1,2,3,4', '5'), {});
    expect(read.items).toEqual([
      { input: { a: '1', b: '2', c: '3' }, tags: [] },
      { input: { a: '5', b: '', c: '' }, tags: [] },
    ]);
    expect(read.skipped).toEqual(['Line 3: 4 cells, the header has 3']);
  });

  it('refuses a header with a column named twice or a column without a name', async () => {
    expect(await failure(() => readDatasetFile('text/csv', csv('q,answer,q', '1,2,3'), {}))).toBe(
      'This file cannot be imported: the header names the column "q" twice',
    );
    expect(await failure(() => readDatasetFile('text/csv', csv('q,,answer', '1,2,3'), {}))).toBe(
      'This file cannot be imported: column 2 of the header has no name',
    );
  });

  it('refuses a file that is not CSV, has no rows, or lacks a column the import names', async () => {
    expect(await failure(() => readDatasetFile('text/csv', csv('q,answer', '"open,2'), {}))).toBe(
      'This file cannot be imported: a quoted cell that starts on line 2 is never closed',
    );
    expect(await failure(() => readDatasetFile('text/csv', csv('q,answer'), {}))).toBe(
      'This file cannot be imported: it holds no items',
    );
    expect(await failure(() => readDatasetFile('text/csv', '', {}))).toBe(
      'This file cannot be imported: it is empty',
    );
    expect(await failure(() => readDatasetFile('text/csv', csv('q,a', '1,2'), { expected: 'reply' }))).toBe(
      'This file cannot be imported: it has no column or field named "reply"',
    );
  });

  it(`refuses more than ${DATASET_MAX_ITEMS} items`, async () => {
    const rows = Array.from({ length: DATASET_MAX_ITEMS + 1 }, (_, i) => `q${i}`);
    expect(await failure(() => readDatasetFile('text/csv', csv('q', ...rows), {}))).toBe(
      'This file cannot be imported: it holds 10,001 items, and a dataset holds at most 10,000',
    );
    expect((await readDatasetFile('text/csv', csv('q', ...rows.slice(1)), {})).items).toHaveLength(
      DATASET_MAX_ITEMS,
    );
  });

  it('leaves out tags a dataset item cannot hold, and says so', async () => {
    const long = 'x'.repeat(51);
    const many = Array.from({ length: 22 }, (_, i) => `t${i}`).join(';');
    const read = await readDatasetFile('text/csv', csv('q,tags', `a,"ok, ${long}"`, `b,"${many}"`), {
      tags: 'tags',
    });
    expect(read.items[0].tags).toEqual(['ok']);
    expect(read.items[1].tags).toHaveLength(20);
    expect(read.skipped).toEqual([
      '3 tags were left out: a tag holds at most 50 characters, an item at most 20 tags',
    ]);
  });
});

describe('readDatasetFile: JSONL', () => {
  it('puts every field into the input, and a field named answer is the expected answer', async () => {
    const read = await readDatasetFile(
      'application/jsonl',
      jsonl(
        { city: 'Paris', answer: 'France' },
        { city: 'Kyoto', answer: 'Japan', population: 1_460_000 },
        { city: 'Lima', answer: null },
      ),
      {},
    );
    expect(read).toEqual({
      format: 'jsonl',
      columns: ['city', 'answer', 'population'],
      items: [
        { input: { city: 'Paris' }, expected: 'France', tags: [] },
        { input: { city: 'Kyoto', population: 1_460_000 }, expected: 'Japan', tags: [] },
        { input: { city: 'Lima' }, tags: [] },
      ],
      graders: [],
      skipped: [],
    });
  });

  it('takes lines shaped { input, expected, tags } as they are, a text input as { message }', async () => {
    const read = await readDatasetFile(
      'application/x-ndjson',
      jsonl(
        {
          input: { topic: 'billing', text: 'Refund?' },
          expected: { intent: 'refund' },
          tags: ['billing'],
          id: 'c1',
        },
        { input: 'Hello there', expected: 'Hi!', tags: 'greeting, smalltalk' },
        { input: { text: 'No answer needed' } },
      ),
      {},
    );
    expect(read.format).toBe('jsonl');
    expect(read.items).toEqual([
      { input: { topic: 'billing', text: 'Refund?' }, expected: { intent: 'refund' }, tags: ['billing'] },
      { input: { message: 'Hello there' }, expected: 'Hi!', tags: ['greeting', 'smalltalk'] },
      { input: { text: 'No answer needed' }, tags: [] },
    ]);
    expect(read.skipped).toEqual(['Fields of the lines shaped { input, expected, tags } left out: id']);
  });

  it('maps the fields by name when the import names them, whatever the lines look like', async () => {
    const read = await readDatasetFile(
      'application/jsonl',
      jsonl({ input: { q: 1 }, gold: 'A', kind: ['x'] }),
      {
        expected: 'gold',
        tags: 'kind',
      },
    );
    expect(read.items).toEqual([{ input: { input: { q: 1 } }, expected: 'A', tags: ['x'] }]);
  });

  it('passes over lines that are not JSON objects, naming at most 20 of them', async () => {
    const lines = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0 ? `{"n": ${i}}` : i < 50 ? '[1, 2]' : '{oops',
    );
    const read = await readDatasetFile('application/jsonl', ['', ...lines, ''].join('\r\n'), {});
    expect(read.items).toHaveLength(30);
    expect(read.items[1]).toEqual({ input: { n: 2 }, tags: [] });
    expect(read.skipped).toHaveLength(21);
    expect(read.skipped[0]).toBe('Line 3: not a JSON object');
    expect(read.skipped[19]).toBe('Line 41: not a JSON object');
    expect(read.skipped[20]).toBe('…and 10 more');
  });

  it('refuses a file where most lines are not JSON objects', async () => {
    const pretty = JSON.stringify([{ q: 'a' }, { q: 'b' }], null, 2);
    expect(await failure(() => readDatasetFile('application/jsonl', pretty, {}))).toBe(
      'This file cannot be imported: 8 of its 8 lines are not JSON objects',
    );
    expect(await failure(() => readDatasetFile('application/jsonl', '{"a": 1}\n2\n"x"\n', {}))).toBe(
      'This file cannot be imported: 2 of its 3 lines are not JSON objects',
    );
    expect(await failure(() => readDatasetFile('application/jsonl', '\n \n', {}))).toBe(
      'This file cannot be imported: it is empty',
    );
  });
});

describe('readDatasetFile: content types', () => {
  it('refuses a type other than CSV, JSONL and JSON', async () => {
    expect(await failure(() => readDatasetFile('text/plain', 'q\n1', {}))).toBe(
      'This file cannot be imported: send it as text/csv, application/jsonl or application/json',
    );
  });
});
