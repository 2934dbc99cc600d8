import type { getDocumentProxy } from 'unpdf';
import { KnowledgeInputError } from './knowledge-input-error';

export const PDF_UNREADABLE = 'The PDF could not be read.';
export const PDF_NO_TEXT = 'The PDF has no text to index (a scanned document needs text recognition first).';
export const PDF_PASSWORD = 'The PDF is protected by a password; remove the password and add it again.';

/**
 * The text of a PDF's pages, in order, pages apart by a blank line (where the chunker prefers to
 * cut). pdf.js (through unpdf, its build for servers) reads the file in this process, so this runs on
 * the workers only, never while a request waits. Pages are read one at a time so a long document
 * holds one page's text items at once. A file pdf.js cannot open fails as unreadable; a PDF of
 * scanned pages (images, no text) fails saying so, since indexing it needs text recognition first.
 */
export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  const unpdf = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the buffer it is given (it may transfer it): it gets a copy.
    pdf = await unpdf.getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException')
      throw new KnowledgeInputError(PDF_PASSWORD);
    throw new KnowledgeInputError(PDF_UNREADABLE);
  }
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .replaceAll('\u0000', '')
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      page.cleanup();
      if (text) pages.push(text);
    }
    if (pages.length === 0) throw new KnowledgeInputError(PDF_NO_TEXT);
    return pages.join('\n\n');
  } catch (error) {
    if (error instanceof KnowledgeInputError) throw error;
    // A page pdf.js cannot parse (a broken content stream, a missing object).
    throw new KnowledgeInputError(PDF_UNREADABLE);
  } finally {
    await pdf.loadingTask.destroy();
  }
}
