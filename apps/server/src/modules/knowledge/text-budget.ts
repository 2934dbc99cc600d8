import { KnowledgeInputError } from './knowledge-input-error';

/**
 * The same 20 MiB as an upload (KNOWLEDGE_MAX_DOCUMENT_BYTES in contracts, which a test holds it to).
 * Not imported from there: this runs on the reading thread, where loading all of contracts through tsx
 * would cost most of a second per document.
 */
export const TEXT_MAX_BYTES = 20 * 1024 * 1024;

export const TEXT_TOO_LARGE = 'The document’s text is larger than 20 MiB; split it into smaller documents.';

/**
 * A document's text as it is read, held to the same 20 MiB (UTF-8) as an upload: a small file can
 * expand (a PDF drawing one compressed block of text thousands of times, a CSV whose headers repeat on
 * every row), so each piece is counted as it comes and the first one past the limit stops the reading
 * with KnowledgeInputError (TEXT_TOO_LARGE), before the rest is read or the whole is joined.
 */
export class TextBudget {
  private used = 0;
  private readonly parts: string[] = [];

  constructor(private readonly maxBytes = TEXT_MAX_BYTES) {}

  /** Counts `piece` against the limit without keeping it (for text a reader keeps itself). */
  spend(piece: string): void {
    this.used += Buffer.byteLength(piece, 'utf8');
    if (this.used > this.maxBytes) throw new KnowledgeInputError(TEXT_TOO_LARGE);
  }

  push(piece: string): void {
    this.spend(piece);
    this.parts.push(piece);
  }

  join(separator = ''): string {
    return this.parts.join(separator);
  }
}

/** Throws TEXT_TOO_LARGE for a finished text over the limit. */
export function checkTextSize(text: string, maxBytes = TEXT_MAX_BYTES): string {
  new TextBudget(maxBytes).spend(text);
  return text;
}
