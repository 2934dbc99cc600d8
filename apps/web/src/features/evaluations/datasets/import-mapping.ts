// The Import dialog's rules: which content type a file is sent as (from its extension), what each of
// a CSV's columns or a JSONL file's fields becomes (the mapping), and the query string that tells
// POST /api/datasets/:id/import so (`expected`, `tags`, `ignore`; every other column is input).
import type { DatasetImportQuery, datasetImportContentTypes } from '@crewline/contracts';

export type ImportContentType = (typeof datasetImportContentTypes)[number];

const CONTENT_TYPES: Record<string, ImportContentType> = {
  csv: 'text/csv',
  jsonl: 'application/jsonl',
  json: 'application/json',
};

/** The file picker's `accept`. */
export const IMPORT_ACCEPT = '.csv,.jsonl,.json';

/** The content type a file is sent as; null for another extension. */
export function importContentType(fileName: string): ImportContentType | null {
  const extension = /\.([^.]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  return (extension && CONTENT_TYPES[extension]) || null;
}

export const columnRoleValues = ['input', 'expected', 'tags', 'ignore'] as const;
export type ColumnRole = (typeof columnRoleValues)[number];
export const columnRoleLabels: Record<ColumnRole, string> = {
  input: 'Input',
  expected: 'Expected',
  tags: 'Tags',
  ignore: 'Ignore',
};

/** Each column's role, in the file's column order. */
export type ImportMapping = { column: string; role: ColumnRole }[];

/** Names read as the expected answer (compared without case), as the server guesses it too. */
const EXPECTED_NAMES = ['expected', 'expected_output', 'ideal', 'answer'];
const TAG_NAMES = ['tags', 'tag', 'labels'];

/**
 * The mapping a file starts with: the first column named like an answer is Expected (the server's own
 * guess), one named tags is Tags, the others input.
 */
export function initialMapping(columns: readonly string[]): ImportMapping {
  const lower = columns.map((column) => column.trim().toLowerCase());
  const expected = lower.findIndex((name) => EXPECTED_NAMES.includes(name));
  const tags = lower.findIndex((name) => TAG_NAMES.includes(name));
  return columns.map((column, index) => ({
    column,
    role: index === expected ? 'expected' : index === tags ? 'tags' : 'input',
  }));
}

/**
 * The mapping with `column` given `role`. One column is the expected answer and one holds the tags:
 * choosing another for either makes the previous one input again.
 */
export function withColumnRole(mapping: ImportMapping, column: string, role: ColumnRole): ImportMapping {
  return mapping.map((entry) => {
    if (entry.column === column) return { column, role };
    if ((role === 'expected' || role === 'tags') && entry.role === role) return { ...entry, role: 'input' };
    return entry;
  });
}

/** Whether the mapping is the server's reading without one (every column input). */
export function isPlainMapping(mapping: ImportMapping): boolean {
  return mapping.every((entry) => entry.role === 'input');
}

/**
 * The import's query string for the mapping (without `preview`). A mapping without an expected
 * column says so with an empty `expected` (else the server would guess one); before the columns are
 * known (an empty mapping) nothing is said.
 */
export function importQuery(mapping: ImportMapping): Omit<DatasetImportQuery, 'preview'> {
  const query: Omit<DatasetImportQuery, 'preview'> = {};
  if (mapping.length === 0) return query;
  const expected = mapping.find((entry) => entry.role === 'expected');
  const tags = mapping.find((entry) => entry.role === 'tags');
  const ignored = mapping.filter((entry) => entry.role === 'ignore').map((entry) => entry.column);
  query.expected = expected?.column ?? '';
  if (tags) query.tags = tags.column;
  if (ignored.length > 0) query.ignore = ignored.join(',');
  return query;
}

/** '3 graders converted: after the import, a new evaluation of this dataset starts with them'. */
export function convertedGradersText(count: number): string {
  return `${count} ${count === 1 ? 'grader' : 'graders'} converted: after the import, a new evaluation of this dataset starts with ${count === 1 ? 'it' : 'them'}`;
}

export function itemCountText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'item' : 'items'}`;
}
