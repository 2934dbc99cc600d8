import {
  DATASET_MAX_ITEMS,
  formatNumber,
  type DatasetImportQuery,
  type DatasetItemInput,
  type GraderInput,
} from '@crewline/contracts';
import { ImportNotes, unreadableFile } from './import-notes';
import { readCsv } from './read-csv';
import { parseJsonLines, readJsonl } from './read-jsonl';
import { isOpenAiItemLine, readOpenAiExport, readOpenAiItemLines } from './read-openai-evals';

export type ReadDatasetFile = {
  format: 'csv' | 'jsonl' | 'openai_evals';
  /** The CSV header, or the top-level fields of the first 1,000 JSONL lines (an OpenAI item's fields), in first-seen order. */
  columns: string[];
  items: DatasetItemInput[];
  /** An OpenAI Evals export's graders as Crewline's (empty for CSV and JSONL). */
  graders: GraderInput[];
  /** What was not taken over, in words. */
  skipped: string[];
};

/**
 * A dataset file (POST /api/datasets/:id/import) as items: CSV (text/csv), JSONL (application/jsonl,
 * or application/x-ndjson), which may be an OpenAI Evals data file, or an OpenAI Evals export in one
 * JSON document (application/json; `body` is what the JSON parser made of it, or its text).
 * Throws BadRequestError (evaluationMessages.unreadableFile) when the file cannot be read at all,
 * holds no items, or more than a dataset holds.
 */
export async function readDatasetFile(
  contentType: string,
  body: string | unknown,
  query: DatasetImportQuery,
): Promise<ReadDatasetFile> {
  const notes = new ImportNotes();
  const read = await readByType(contentType.split(';')[0].trim().toLowerCase(), body, query, notes);
  if (read.items.length === 0) throw unreadableFile('it holds no items');
  if (read.items.length > DATASET_MAX_ITEMS) {
    throw unreadableFile(
      `it holds ${formatNumber(read.items.length)} items, and a dataset holds at most ${formatNumber(DATASET_MAX_ITEMS)}`,
    );
  }
  return { ...read, skipped: notes.list() };
}

async function readByType(
  mediaType: string,
  body: unknown,
  query: DatasetImportQuery,
  notes: ImportNotes,
): Promise<Omit<ReadDatasetFile, 'skipped'>> {
  switch (mediaType) {
    case 'text/csv':
      return { format: 'csv', graders: [], ...(await readCsv(text(body), query, notes)) };
    case 'application/jsonl':
    case 'application/x-ndjson': {
      const lines = parseJsonLines(text(body), notes);
      const values = lines.map(({ value }) => value);
      if (values.every(isOpenAiItemLine)) {
        return { format: 'openai_evals', ...readOpenAiItemLines(values, query, notes) };
      }
      return { format: 'jsonl', graders: [], ...readJsonl(lines, query, notes) };
    }
    case 'application/json':
      return { format: 'openai_evals', ...readOpenAiExport(jsonDocument(body), query, notes) };
    default:
      throw unreadableFile('send it as text/csv, application/jsonl or application/json');
  }
}

/** A text body; a raw body the server kept as bytes is read as UTF-8. */
function text(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  throw unreadableFile('it is not text');
}

/** The JSON document: as the server's JSON parser made it, or parsed here from its text. */
function jsonDocument(body: unknown): unknown {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return body;
  try {
    return JSON.parse(text(body).replace(/^\uFEFF/, '')) as unknown;
  } catch {
    throw unreadableFile('it is not valid JSON');
  }
}
