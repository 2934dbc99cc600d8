import type { getDocumentProxy } from 'unpdf';
import { formatNumber } from '@crewline/contracts/format-number';
import { KnowledgeInputError } from './knowledge-input-error';
import { TextBudget } from './text-budget';

export const PDF_UNREADABLE = 'The PDF could not be read.';
export const PDF_NO_TEXT = 'The PDF has no text to index (a scanned document needs text recognition first).';
const PDF_PASSWORD = 'The PDF is protected by a password; remove the password and add it again.';
export const pdfTooManyPages = (maxPages: number) =>
  `The PDF has more than ${formatNumber(maxPages)} pages; split it into smaller documents.`;

export type PdfLimits = {
  /** Pages the PDF may have (KNOWLEDGE_PDF_MAX_PAGES). */
  maxPages: number;
  /** UTF-8 bytes of text it may yield (20 MiB unless a test says otherwise). */
  maxTextBytes?: number;
};

type Pdf = Awaited<ReturnType<typeof getDocumentProxy>>;
type TextContent = Awaited<ReturnType<Awaited<ReturnType<Pdf['getPage']>>['getTextContent']>>;

/**
 * The text of a PDF's pages, in order, pages apart by a blank line (where the chunker prefers to
 * cut). pdf.js (through unpdf, its build for servers) reads the file; this runs on a worker thread
 * (extract-in-worker.ts), never on the thread that serves requests. A PDF with more pages than
 * `maxPages` fails before any page is read. Each page's text is streamed in batches and counted as it
 * comes (TextBudget), so a small file that expands to more than 20 MiB of text stops there. A file
 * pdf.js cannot open fails as unreadable; a PDF of scanned pages (images, no text) fails saying so,
 * since indexing it needs text recognition first.
 */
export async function extractPdfText(bytes: Uint8Array, limits: PdfLimits): Promise<string> {
  const unpdf = await import('unpdf');
  let pdf: Pdf;
  try {
    // pdf.js takes ownership of the buffer it is given (it may transfer it): it gets a copy.
    pdf = await unpdf.getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException')
      throw new KnowledgeInputError(PDF_PASSWORD);
    throw new KnowledgeInputError(PDF_UNREADABLE);
  }
  try {
    if (pdf.numPages > limits.maxPages) throw new KnowledgeInputError(pdfTooManyPages(limits.maxPages));
    const budget = new TextBudget(limits.maxTextBytes);
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const raw = await readPageText(page.streamTextContent(), budget);
      // Whitespace collapses and lines are trimmed: the text only gets shorter than what was counted.
      const text = raw
        .replaceAll('\u0000', '')
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      page.cleanup();
      if (text) {
        if (pages.length > 0) budget.spend('\n\n');
        pages.push(text);
      }
    }
    if (pages.length === 0) throw new KnowledgeInputError(PDF_NO_TEXT);
    return pages.join('\n\n');
  } catch (error) {
    if (error instanceof KnowledgeInputError) throw error;
    // A page pdf.js cannot parse (a broken content stream, a missing object).
    throw new KnowledgeInputError(PDF_UNREADABLE);
  } finally {
    // Ends pdf.js's work on the document. Not waited for: after reading stopped mid-page (the text
    // budget) pdf.js may never settle it, and an await here would keep the reason from its caller
    // (the reading thread then ran out of work with nothing answered); the thread ends anyway.
    void pdf.loadingTask.destroy().catch(() => undefined);
  }
}

/**
 * A page's text items as pdf.js streams them, each line ended where the item says, counted against
 * the budget batch by batch. Past it, reading stops and the document is destroyed (extractPdfText's
 * `finally`), which ends pdf.js's work on it; the stream is released, not cancelled, since pdf.js's
 * in-process worker would still write to a cancelled one and fail unhandled.
 */
async function readPageText(stream: ReadableStream<TextContent>, budget: TextBudget): Promise<string> {
  const reader = stream.getReader();
  const pieces: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return pieces.join('');
      for (const item of value.items) {
        if (!('str' in item)) continue;
        const piece = item.hasEOL ? `${item.str}\n` : item.str;
        budget.spend(piece);
        pieces.push(piece);
      }
    }
  } catch (error) {
    reader.releaseLock();
    throw error;
  }
}
