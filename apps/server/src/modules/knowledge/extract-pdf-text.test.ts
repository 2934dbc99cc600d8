import { describe, expect, it } from 'vitest';
import { corruptPdf, pdfWithText, pdfWithoutText } from '../../testing/hand-made-pdf';
import { extractPdfText, PDF_NO_TEXT, PDF_UNREADABLE } from './extract-pdf-text';
import { KnowledgeInputError } from './knowledge-input-error';

describe('extractPdfText', () => {
  it('reads each page’s lines in order, pages apart by a blank line', async () => {
    const pdf = pdfWithText([
      ['Refunds (in full) are paid within five days.', 'Ask   the    front desk.'],
      [],
      ['Page three: the Lisbon warehouse ships on weekdays.'],
    ]);
    expect(await extractPdfText(pdf)).toBe(
      'Refunds (in full) are paid within five days.\nAsk the front desk.\n\n' +
        'Page three: the Lisbon warehouse ships on weekdays.',
    );
  });

  it('leaves the caller’s bytes as they were (pdf.js reads a copy)', async () => {
    const pdf = pdfWithText([['Kept intact.']]);
    const before = Buffer.from(pdf);
    await extractPdfText(pdf);
    expect(pdf.equals(before)).toBe(true);
  });

  it('fails a PDF without text as one that needs text recognition', async () => {
    await expect(extractPdfText(pdfWithoutText())).rejects.toEqual(new KnowledgeInputError(PDF_NO_TEXT));
    expect(PDF_NO_TEXT).toBe(
      'The PDF has no text to index (a scanned document needs text recognition first).',
    );
  });

  it('fails bytes that are not a PDF as unreadable', async () => {
    for (const bytes of [corruptPdf(), Buffer.from('PK\u0003\u0004 a zip file'), Buffer.alloc(0)]) {
      await expect(extractPdfText(bytes)).rejects.toEqual(new KnowledgeInputError(PDF_UNREADABLE));
    }
    expect(PDF_UNREADABLE).toBe('The PDF could not be read.');
  });
});
