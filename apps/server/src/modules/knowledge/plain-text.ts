import { KnowledgeInputError } from './knowledge-input-error';
import { checkTextSize } from './text-budget';

/**
 * One kind of line ending, no byte-order mark, and no NUL characters (Postgres text columns cannot
 * hold them; a text file with them is almost always a binary file renamed).
 */
export function cleanText(content: string) {
  return content
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replaceAll('\u0000', '');
}

/** What a reader extracted, trimmed: KnowledgeInputError when nothing readable is left or it is over the limit. */
export function readableText(extracted: string, maxTextBytes?: number): string {
  if (!extracted.trim()) throw new KnowledgeInputError('The document has no text');
  return checkTextSize(extracted.trim(), maxTextBytes);
}
