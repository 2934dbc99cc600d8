import { describe, expect, it } from 'vitest';
import { corruptPdf, expandingPdf, pdfWithText, pdfWithoutText } from '../../testing/hand-made-pdf';
import { extractPdfText, PDF_NO_TEXT, PDF_UNREADABLE, pdfTooManyPages } from './extract-pdf-text';
import { KnowledgeInputError } from './knowledge-input-error';
import { TEXT_TOO_LARGE } from './text-budget';

const limits = { maxPages: 10 };

describe('extractPdfText', () => {
  it('reads each page’s lines in order, pages apart by a blank line', async () => {
    const pdf = pdfWithText([
      ['Refunds (in full) are paid within five days.', 'Ask   the    front desk.'],
      [],
      ['Page three: the Lisbon warehouse ships on weekdays.'],
    ]);
    expect(await extractPdfText(pdf, limits)).toBe(
      'Refunds (in full) are paid within five days.\nAsk the front desk.\n\n' +
        'Page three: the Lisbon warehouse ships on weekdays.',
    );
  });

  it('leaves the caller’s bytes as they were (pdf.js reads a copy)', async () => {
    const pdf = pdfWithText([['Kept intact.']]);
    const before = Buffer.from(pdf);
    await extractPdfText(pdf, limits);
    expect(pdf.equals(before)).toBe(true);
  });

  it('fails a PDF without text as one that needs text recognition', async () => {
    await expect(extractPdfText(pdfWithoutText(), limits)).rejects.toEqual(
      new KnowledgeInputError(PDF_NO_TEXT),
    );
    expect(PDF_NO_TEXT).toBe(
      'The PDF has no text to index (a scanned document needs text recognition first).',
    );
  });

  it('fails bytes that are not a PDF as unreadable', async () => {
    for (const bytes of [corruptPdf(), Buffer.from('PK\u0003\u0004 a zip file'), Buffer.alloc(0)]) {
      await expect(extractPdfText(bytes, limits)).rejects.toEqual(new KnowledgeInputError(PDF_UNREADABLE));
    }
    expect(PDF_UNREADABLE).toBe('The PDF could not be read.');
  });

  it('fails a PDF with more pages than allowed before reading any, naming the limit', async () => {
    const pages = (n: number) => Array.from({ length: n }, (_, i) => [`Page ${i + 1}`]);
    expect(await extractPdfText(pdfWithText(pages(3)), { maxPages: 3 })).toBe('Page 1\n\nPage 2\n\nPage 3');
    await expect(extractPdfText(pdfWithText(pages(4)), { maxPages: 3 })).rejects.toEqual(
      new KnowledgeInputError('The PDF has more than 3 pages; split it into smaller documents.'),
    );
    expect(pdfTooManyPages(2000)).toBe('The PDF has more than 2,000 pages; split it into smaller documents.');
  });

  it('stops reading a small PDF whose text expands past the limit', async () => {
    // 40 KB of file, 700 lines of 1,000 characters drawn 32 times: 22.4 million characters.
    const bomb = expandingPdf();
    expect(bomb.length).toBeLessThan(100_000);
    await expect(extractPdfText(bomb, { maxPages: 10, maxTextBytes: 1_000_000 })).rejects.toEqual(
      new KnowledgeInputError(TEXT_TOO_LARGE),
    );
    // Under the limit, the same drawing is read in full.
    const small = expandingPdf({ lines: 3, width: 50, draws: 2 });
    expect((await extractPdfText(small, { maxPages: 10, maxTextBytes: 1_000_000 })).length).toBeGreaterThan(
      300,
    );
    expect(TEXT_TOO_LARGE).toBe(
      'The document’s text is larger than 20 MiB; split it into smaller documents.',
    );
  });
});
