import { describe, expect, it } from 'vitest';
import { extractText } from './extract-text';
import { KnowledgeInputError } from './knowledge-input-error';
import { KNOWLEDGE_MAX_DOCUMENT_BYTES } from '@crewline/contracts';
import { TEXT_MAX_BYTES, TEXT_TOO_LARGE } from './text-budget';

const failure = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

describe('extractText: plain text and Markdown', () => {
  it('keeps the text as written, with one kind of line ending and no byte-order mark', async () => {
    expect(await extractText('text/plain', '\uFEFFLine one\r\nLine two\rLine three\n')).toBe(
      'Line one\nLine two\nLine three',
    );
    expect(await extractText('text/markdown', '# Title\r\n\r\n- item *one*\r\n')).toBe(
      '# Title\n\n- item *one*',
    );
  });

  it('drops NUL characters, which a database text column cannot hold', async () => {
    expect(await extractText('text/plain', 'a\u0000b')).toBe('ab');
  });

  it('refuses a document with nothing readable in it', async () => {
    const error = await failure(() => extractText('text/plain', ' \r\n\t\u0000 '));
    expect(error).toBeInstanceOf(KnowledgeInputError);
    expect((error as Error).message).toBe('The document has no text');
  });
});

describe('extractText: HTML', () => {
  it('keeps what a reader sees: no scripts, styles, comments or templates', async () => {
    const html = `<!doctype html><html><head><title>Refunds</title><style>p{color:red}</style>
      <script>var secret = 1;</script></head><body>
      <!-- internal note -->
      <noscript>Enable JavaScript</noscript><template><p>Hidden</p></template>
      <h1>Refund   policy</h1><p>Refunds are paid
      within <b>30</b> days.</p><script type="module">alert(1)</script></body></html>`;
    expect(await extractText('text/html', html)).toBe(
      'Refunds\n\nRefund policy\n\nRefunds are paid within 30 days.',
    );
  });

  it('decodes named and numeric entities', async () => {
    expect(
      await extractText('text/html', '<p>Fish &amp; chips &lt;3 &#8364;5 &#x263A; caf&eacute;&nbsp;bar</p>'),
    ).toBe('Fish & chips <3 €5 ☺ café bar');
  });

  it('turns blocks into lines and paragraphs, lists into items and table rows into lines', async () => {
    const html = `<div>First line<br>second line</div><ul><li>Apples</li><li>Pears</li></ul>
      <table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea</td><td>3</td></tr></table><p>End</p>`;
    expect(await extractText('text/html', html)).toBe(
      'First line\nsecond line\n\n- Apples\n- Pears\n\nName Price\nTea 3\n\nEnd',
    );
  });

  it('keeps the spacing of preformatted text', async () => {
    expect(await extractText('text/html', '<p>Run:</p><pre>npm  install\n  --save</pre>')).toBe(
      'Run:\n\nnpm  install\n  --save',
    );
  });

  it('refuses a page with no visible text', async () => {
    const error = await failure(() =>
      extractText('text/html', '<script>x()</script><style>a{}</style><!-- hi -->'),
    );
    expect(error).toBeInstanceOf(KnowledgeInputError);
    expect((error as Error).message).toBe('The document has no text');
  });
});

describe('extractText: CSV', () => {
  it('writes one line per row, each value after its header', async () => {
    const csv = 'Name,Role,City\r\nAda,Engineer,London\r\nGrace,Admiral,Arlington\r\n';
    expect(await extractText('text/csv', csv)).toBe(
      'Name: Ada; Role: Engineer; City: London\nName: Grace; Role: Admiral; City: Arlington',
    );
  });

  it('reads quoted fields with commas, quotes and line breaks, and leaves out empty values', async () => {
    const csv = 'Product,Notes,Price\n"Desk, oak","Sturdy ""pro"" model\nships flat",\n,"",';
    expect(await extractText('text/csv', csv)).toBe(
      'Product: Desk, oak; Notes: Sturdy "pro" model ships flat',
    );
  });

  it('names the columns past the header, and tolerates short rows', async () => {
    expect(await extractText('text/csv', 'A,B\n1,2,3\n4')).toBe('A: 1; B: 2; Column 3: 3\nA: 4');
  });

  it('refuses a CSV it cannot read, or one with no rows', async () => {
    const broken = await failure(() => extractText('text/csv', 'a,b\n"unclosed,2'));
    expect(broken).toBeInstanceOf(KnowledgeInputError);
    expect((broken as Error).message).toMatch(/^The CSV file could not be read: /);

    const headerOnly = await failure(() => extractText('text/csv', 'Name,Role\n'));
    expect((headerOnly as Error).message).toBe('The CSV file has no rows below its header');
  });

  it('holds the text to the limit: a CSV whose long headers repeat on every row stops there', async () => {
    const header = Array.from({ length: 20 }, (_, i) => `A rather long column name ${i}`).join(',');
    const row = Array.from({ length: 20 }, () => 'x').join(',');
    // 4.6 KB of CSV that reads as 66 KB of text.
    const csv = [header, ...Array.from({ length: 100 }, () => row)].join('\n');
    expect(Buffer.byteLength(await extractText('text/csv', csv, 100_000))).toBeGreaterThan(10 * csv.length);
    expect(await failure(() => extractText('text/csv', csv, 10_000))).toEqual(
      new KnowledgeInputError(TEXT_TOO_LARGE),
    );
    expect(await failure(() => extractText('text/plain', 'é'.repeat(5_001), 10_000))).toEqual(
      new KnowledgeInputError(TEXT_TOO_LARGE),
    );
    expect(await extractText('text/plain', 'é'.repeat(5_000), 10_000)).toHaveLength(5_000);
    // By default, the same 20 MiB as an upload.
    expect(TEXT_MAX_BYTES).toBe(KNOWLEDGE_MAX_DOCUMENT_BYTES);
  });
});
