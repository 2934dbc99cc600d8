import type { DatasetImportQuery, DatasetItemInput, GraderInput } from '@crewline/contracts';
import { convertOpenAiGraders, expectedFieldOf } from './convert-openai-graders';
import { unreadableFile, type ImportNotes } from './import-notes';
import { TagNotes, columnsOf, fieldMapping, isJsonObject, mapRecord } from './map-fields';

/*
 * OpenAI Evals exports (the platform closed on 2026-11-30). Its data files are JSONL whose lines are
 * `{ "item": {...}, "sample"?: {...} }` (the JSONL run data source of OpenAI's API reference): `item`
 * is the dataset row, `sample` an answer a model gave earlier, which is not a case's data and is left
 * out. An eval is `{ name, data_source_config, testing_criteria }`; an export in one JSON document
 * is `{ "eval": {...}, "items": [...] }`, `{ "testing_criteria": [...], "items": [...] }`, or just
 * the array of items; its items may be wrapped in `item` or not.
 */

export type OpenAiEvalsRead = { columns: string[]; items: DatasetItemInput[]; graders: GraderInput[] };

/** A JSONL line of an OpenAI Evals data file: exactly an `item` object, and maybe a `sample`. */
export function isOpenAiItemLine(value: Record<string, unknown>): boolean {
  return isJsonObject(value.item) && Object.keys(value).every((key) => key === 'item' || key === 'sample');
}

/** The lines of an OpenAI Evals data file (every one passed isOpenAiItemLine). */
export function readOpenAiItemLines(
  lines: Record<string, unknown>[],
  query: DatasetImportQuery,
  notes: ImportNotes,
): OpenAiEvalsRead {
  return readItems(lines, undefined, query, notes);
}

/** An OpenAI Evals export as one JSON document. */
export function readOpenAiExport(
  document: unknown,
  query: DatasetImportQuery,
  notes: ImportNotes,
): OpenAiEvalsRead {
  if (Array.isArray(document)) return readItems(itemObjects(document, notes), undefined, query, notes);
  if (!isJsonObject(document)) throw unreadableFile(NOT_AN_EXPORT);
  const evaluation = isJsonObject(document.eval) ? document.eval : document;
  const criteria = evaluation.testing_criteria;
  if (criteria !== undefined && !Array.isArray(criteria))
    throw unreadableFile('its testing_criteria is not a list');
  if (!Array.isArray(document.items)) {
    throw unreadableFile(
      criteria ? 'it has graders but no items (export the eval with its items)' : NOT_AN_EXPORT,
    );
  }
  return readItems(itemObjects(document.items, notes), criteria, query, notes);
}

const NOT_AN_EXPORT =
  'it is not an OpenAI Evals export (an object with testing_criteria and items, or a list of items)';

/** The listed items that are objects; the others are named in the notes, and refused when they are most. */
function itemObjects(entries: unknown[], notes: ImportNotes): Record<string, unknown>[] {
  const objects = entries.filter(isJsonObject);
  entries.forEach((entry, index) => {
    if (!isJsonObject(entry)) notes.line(`Item ${index + 1}: not a JSON object`);
  });
  const bad = entries.length - objects.length;
  if (bad * 2 > entries.length)
    throw unreadableFile(`${bad} of its ${entries.length} items are not JSON objects`);
  return objects;
}

/**
 * Items as dataset items. With graders, the field their `{{item.X}}` reference reads is the
 * expected answer and the rest of the item is its input; with graders that have no reference, the
 * whole item is the input. Without graders (a bare data file) a field named expected,
 * expected_output, ideal or answer is taken as expected, as for any JSONL file. The query's
 * `expected`, `tags` and `ignore` apply over this.
 */
function readItems(
  entries: Record<string, unknown>[],
  criteria: unknown[] | undefined,
  query: DatasetImportQuery,
  notes: ImportNotes,
): OpenAiEvalsRead {
  const records = entries.map((entry) =>
    isOpenAiItemLine(entry) ? (entry.item as Record<string, unknown>) : entry,
  );
  if (entries.some((entry) => isOpenAiItemLine(entry) && entry.sample !== undefined)) {
    notes.note("The items' samples (answers a model gave on OpenAI) were left out");
  }
  const columns = columnsOf(records);
  const graded = criteria !== undefined && criteria.length > 0;
  const mapping = fieldMapping(query, columns, {
    defaultExpected: graded ? expectedFieldOf(criteria) : undefined,
    guessExpected: !graded,
  });
  const graders = graded ? convertOpenAiGraders(criteria, mapping.expected, notes) : [];
  const tags = new TagNotes();
  const items = records.map((record) => mapRecord(record, mapping, tags));
  tags.report(notes);
  return { columns, items, graders };
}
