import type { KnowledgeTextMediaType } from '@crewline/contracts';
import { Parser } from 'htmlparser2';
import { KnowledgeInputError } from './knowledge-input-error';
import { cleanText, readableText } from './plain-text';
import { TextBudget } from './text-budget';
import { loadOnce } from '../../platform/load-once';

/**
 * csv-parse, loaded by the first CSV document, not with this file: the extraction thread reads one
 * document, and an HTML or text one has no use for it (~6.5 MiB of memory and its load time).
 */
const loadCsvParse = loadOnce(() => import('csv-parse/sync'));

/**
 * The readable text of a document, to be cut into chunks and embedded: plain text and Markdown as
 * written, HTML without its markup, CSV one row per line with each value after its column's header.
 * Throws KnowledgeInputError when nothing readable is left, or when the text is over `maxTextBytes`
 * (20 MiB, as an upload): plain text and HTML only get shorter than the upload, but a CSV's headers
 * repeat on every row, so its lines are counted as they are written. (A PDF's text: extract-pdf-text.ts.)
 */
export async function extractText(
  mediaType: KnowledgeTextMediaType,
  content: string,
  maxTextBytes?: number,
): Promise<string> {
  const text = cleanText(content);
  let extracted: string;
  switch (mediaType) {
    case 'text/plain':
    case 'text/markdown':
      extracted = text;
      break;
    case 'text/html':
      extracted = htmlToText(text);
      break;
    case 'text/csv':
      extracted = await csvToText(text, new TextBudget(maxTextBytes));
      break;
  }
  return readableText(extracted, maxTextBytes);
}

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set('script style noscript template head svg math iframe object'.split(' '));
/** Blocks that read as paragraphs: a blank line around them, where the chunker prefers to cut. */
const PARAGRAPHS = new Set(
  [
    'p h1 h2 h3 h4 h5 h6 blockquote pre table ul ol dl section article header footer nav aside main',
    'figure form fieldset address details hr title',
  ]
    .join(' ')
    .split(' '),
);
/** Blocks that start a new line. */
const LINES = new Set(
  'br div li tr dt dd figcaption summary caption legend option body html center label'.split(' '),
);
/** Cells sit side by side on their row's line. */
const CELLS = new Set(['td', 'th']);

/**
 * HTML to readable text with a streaming parser (entities decoded, comments dropped): hidden
 * elements are skipped, blocks become line breaks, runs of spaces collapse except inside <pre>.
 * `<title>` is kept (inside <head>, which is otherwise skipped): it often names the document.
 * The output is built in pieces, never re-read, so a 20 MiB page takes linear time.
 */
function htmlToText(html: string): string {
  const parts: string[] = [];
  /** Line breaks at the end of the output so far (0, 1 or 2). */
  let newlines = 0;
  /** A space is owed before the next text on the same line. */
  let space = false;
  let hidden = 0;
  let pre = 0;
  let inTitle = false;

  const onLine = () => parts.length > 0 && newlines === 0;
  const write = (text: string) => {
    if (space && onLine()) parts.push(' ');
    parts.push(text);
    space = false;
    newlines = 0;
  };
  const breakLine = (blank: boolean) => {
    space = false;
    if (parts.length === 0) return;
    const want = blank ? 2 : 1;
    if (newlines < want) parts.push('\n'.repeat(want - newlines));
    newlines = Math.max(newlines, want);
  };
  const skipping = () => hidden > 0 && !inTitle;

  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle = true;
        if (HIDDEN.has(name)) hidden++;
        if (skipping()) return;
        if (name === 'pre') pre++;
        if (PARAGRAPHS.has(name)) breakLine(true);
        else if (LINES.has(name)) breakLine(false);
        else if (CELLS.has(name)) space = true;
        if (name === 'li') {
          write('-');
          space = true;
        }
      },
      ontext(text) {
        if (skipping()) return;
        if (pre > 0) {
          if (!text) return;
          parts.push(text);
          space = false;
          const trailing = text.length - text.replace(/\n+$/, '').length;
          newlines = trailing === text.length ? Math.min(2, newlines + trailing) : Math.min(2, trailing);
          return;
        }
        const collapsed = text.replace(/\s+/g, ' ');
        const words = collapsed.trim();
        if (collapsed.startsWith(' ')) space = true;
        if (words) write(words);
        if (words && collapsed.endsWith(' ')) space = true;
      },
      onclosetag(name) {
        if (skipping()) {
          if (HIDDEN.has(name)) hidden--;
          return;
        }
        if (name === 'title') inTitle = false;
        if (HIDDEN.has(name)) hidden--;
        if (name === 'pre') pre = Math.max(0, pre - 1);
        if (PARAGRAPHS.has(name)) breakLine(true);
        else if (LINES.has(name) && name !== 'br') breakLine(false);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();

  return parts
    .join('')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

/**
 * CSV (commas, quoted fields with commas, quotes and line breaks in them) to one line per row:
 * "Header: value; Header: value", empty values left out, so each row reads on its own once chunked.
 */
async function csvToText(csv: string, budget: TextBudget): Promise<string> {
  const { CsvError, parse } = await loadCsvParse();
  let rows: string[][];
  try {
    rows = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    if (error instanceof CsvError) {
      throw new KnowledgeInputError(`The CSV file could not be read: ${error.message}`);
    }
    throw error;
  }
  const [header = [], ...records] = rows;
  const names = header.map((name) => name.replace(/\s+/g, ' ').trim());
  let lines = 0;
  for (const record of records) {
    const pairs: string[] = [];
    record.forEach((raw, i) => {
      const value = raw.replace(/\s+/g, ' ').trim();
      if (value) pairs.push(`${names[i] || `Column ${i + 1}`}: ${value}`);
    });
    if (pairs.length) budget.push((lines++ > 0 ? '\n' : '') + pairs.join('; '));
  }
  if (lines === 0 && names.some(Boolean)) {
    throw new KnowledgeInputError('The CSV file has no rows below its header');
  }
  return budget.join();
}
