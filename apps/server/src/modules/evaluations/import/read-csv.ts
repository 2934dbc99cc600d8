import type { DatasetImportQuery, DatasetItemInput } from '@crewline/contracts';
import type { CsvError } from 'csv-parse/sync';
import { unreadableFile, type ImportNotes } from './import-notes';
import { TagNotes, fieldMapping, mapRecord } from './map-fields';
import { loadOnce } from '../../../platform/load-once';

/** csv-parse, loaded by the first CSV read, not at start (~6.5 MiB of memory at idle). */
const loadCsvParse = loadOnce(() => import('csv-parse/sync'));

/**
 * A CSV file's rows as items: the first row is the header (each name once, none empty), each other
 * row an item. Cells are text as written: a cell holding JSON stays text (a prompt may well be JSON
 * the workflow should see as text), except in the expected column, where an object or array written
 * as JSON becomes that value (a JSON answer can only be written that way). An empty expected cell
 * means no expected answer; rows whose cells are all empty are passed over.
 */
export async function readCsv(
  text: string,
  query: DatasetImportQuery,
  notes: ImportNotes,
): Promise<{ columns: string[]; items: DatasetItemInput[] }> {
  const [header, ...rows] = await parseRows(text);
  if (!header) throw unreadableFile('it is empty');
  const columns = header.record.map((name) => name.trim());
  columns.forEach((name, index) => {
    if (!name) throw unreadableFile(`column ${index + 1} of the header has no name`);
    if (columns.indexOf(name) !== index) throw unreadableFile(`the header names the column "${name}" twice`);
  });
  const mapping = fieldMapping(query, columns, { guessExpected: true });
  const tags = new TagNotes();
  const items: DatasetItemInput[] = [];
  for (const { record, line } of rows) {
    if (record.length > columns.length) {
      notes.line(`Line ${line}: ${record.length} cells, the header has ${columns.length}`);
      continue;
    }
    // A row shorter than the header (a spreadsheet drops trailing empty cells) has empty cells.
    const row = Object.fromEntries(columns.map((name, index) => [name, record[index] ?? '']));
    items.push(mapRecord(row, mapping, tags, expectedCell));
  }
  tags.report(notes);
  return { columns, items };
}

async function parseRows(text: string): Promise<{ record: string[]; line: number }[]> {
  const csv = await loadCsvParse();
  try {
    const rows = csv.parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return rows.map(({ record, info }) => ({ record, line: info.lines }));
  } catch (error) {
    if (error instanceof csv.CsvError) throw unreadableFile(csvProblem(error));
    throw error;
  }
}

/** csv-parse's reasons in the user's words (its own messages name its options). */
function csvProblem(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines;
  const where = line ? ` on line ${line}` : '';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `a quoted cell that starts${where} is never closed`;
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `a quote${where} is in the middle of a cell (write "" for a quote inside a quoted cell)`;
    default:
      return `it is not valid CSV${where}`;
  }
}

/** The expected cell: empty is none; an object or array written as JSON is that value; anything else is text. */
function expectedCell(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (!/^[[{]/.test(trimmed)) return value;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'object' && parsed !== null ? parsed : value;
  } catch {
    return value;
  }
}
