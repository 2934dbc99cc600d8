import type { DatasetImportQuery, DatasetItemInput } from '@crewline/contracts';
import { unreadableFile, type ImportNotes } from './import-notes';
import {
  TagNotes,
  columnsOf,
  expectedValue,
  fieldMapping,
  isJsonObject,
  mapRecord,
  mappingAsked,
} from './map-fields';

export type JsonLine = { line: number; value: Record<string, unknown> };

/**
 * The JSON objects of a JSONL file, one a non-empty line. A line that is not a JSON object is passed
 * over and named in the notes; a file where more than half the lines are not is no JSONL at all (a
 * pretty-printed JSON document, a CSV sent with the wrong type) and is refused.
 */
export function parseJsonLines(text: string, notes: ImportNotes): JsonLine[] {
  const lines: JsonLine[] = [];
  let total = 0;
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, index) => {
      if (!raw.trim()) return;
      total++;
      const value = parseObject(raw);
      if (value) lines.push({ line: index + 1, value });
      else notes.line(`Line ${index + 1}: not a JSON object`);
    });
  if (total === 0) throw unreadableFile('it is empty');
  const bad = total - lines.length;
  if (bad * 2 > total) throw unreadableFile(`${bad} of its ${total} lines are not JSON objects`);
  return lines;
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * JSONL lines as items. Two shapes:
 * - A line with an `input` field that is an object, when the import asks for no mapping, is already
 *   an item: `{ "input": {...}, "expected": ..., "tags": [...] }` gives that input, expected and tags
 *   (its other fields are left out, and said so). An `input` that is text is the same item with the
 *   input `{ "message": "..." }`: a run's input is always an object, and `message` is what a chat
 *   trigger's run starts with.
 * - Any other line is a record: its expected field (the query's `expected`, else one named expected,
 *   expected_output, ideal or answer) and tags field are taken out, every other field is input.
 */
export function readJsonl(
  lines: JsonLine[],
  query: DatasetImportQuery,
  notes: ImportNotes,
): { columns: string[]; items: DatasetItemInput[] } {
  const columns = columnsOf(lines.map(({ value }) => value));
  const mapping = fieldMapping(query, columns, { guessExpected: true });
  const asked = mappingAsked(query);
  const tags = new TagNotes();
  const leftOut = new Set<string>();
  const items = lines.map(({ value }) => {
    const shaped = asked ? undefined : itemShaped(value, tags);
    if (!shaped) return mapRecord(value, mapping, tags);
    for (const name of Object.keys(value)) if (!ITEM_FIELDS.includes(name)) leftOut.add(name);
    return shaped;
  });
  if (leftOut.size > 0) {
    notes.note(`Fields of the lines shaped { input, expected, tags } left out: ${[...leftOut].join(', ')}`);
  }
  tags.report(notes);
  return { columns, items };
}

const ITEM_FIELDS = ['input', 'expected', 'tags'];

function itemShaped(value: Record<string, unknown>, tags: TagNotes): DatasetItemInput | undefined {
  const input = isJsonObject(value.input)
    ? value.input
    : typeof value.input === 'string'
      ? { message: value.input }
      : undefined;
  if (!input) return undefined;
  const expected = expectedValue(value.expected);
  const item: DatasetItemInput = { input, tags: value.tags === undefined ? [] : tags.tags(value.tags) };
  return expected === undefined ? item : { ...item, expected };
}
