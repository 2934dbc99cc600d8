import type { DatasetImportQuery, DatasetItemInput } from '@crewline/contracts';
import { unreadableFile, type ImportNotes } from './import-notes';

/** Which column or field is the expected answer, which holds tags, and which are left out; every other one is input. */
export type FieldMapping = {
  expected?: string;
  tags?: string;
  ignore: ReadonlySet<string>;
};

/** Names taken as the expected answer when the import names none (compared without case). */
const EXPECTED_NAMES = ['expected', 'expected_output', 'ideal', 'answer'];

/** A tag's bounds in datasetItemInputSchema: longer tags and tags past the 20th are left out (and counted). */
const TAG_MAX_LENGTH = 50;
const TAGS_PER_ITEM = 20;

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The query's wish list as a mapping; a column it names that the file does not have is an error, not a silent no-op. */
export function fieldMapping(
  query: DatasetImportQuery,
  columns: string[],
  options: { defaultExpected?: string; guessExpected: boolean },
): FieldMapping {
  const named = (name: string | undefined) => {
    const trimmed = name?.trim();
    if (!trimmed) return undefined;
    if (!columns.includes(trimmed)) throw unreadableFile(`it has no column or field named "${trimmed}"`);
    return trimmed;
  };
  const ignore = new Set(
    (query.ignore ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  // `expected=` (empty) says there is none: nothing is guessed then.
  const guessed =
    options.guessExpected && query.expected === undefined
      ? columns.find((column) => EXPECTED_NAMES.includes(column.toLowerCase()))
      : undefined;
  return {
    expected: named(query.expected) ?? options.defaultExpected ?? guessed,
    tags: named(query.tags),
    ignore,
  };
}

/** True when the query asked for any mapping at all. */
export const mappingAsked = (query: DatasetImportQuery) =>
  Boolean(query.expected?.trim() || query.tags?.trim() || query.ignore?.trim());

/**
 * One record (a CSV row, a JSONL line, an OpenAI Evals item) as a dataset item: the expected field
 * through `readExpected` (absent when it answers undefined), the tags field as tags, every other
 * field not ignored into `input` under its own name.
 */
export function mapRecord(
  record: Record<string, unknown>,
  mapping: FieldMapping,
  notes: TagNotes,
  readExpected: (value: unknown) => unknown = expectedValue,
): DatasetItemInput {
  const input: Record<string, unknown> = {};
  let expected: unknown;
  let tags: string[] = [];
  for (const [name, value] of Object.entries(record)) {
    if (mapping.ignore.has(name)) continue;
    if (name === mapping.expected) expected = readExpected(value);
    else if (name === mapping.tags) tags = notes.tags(value);
    else input[name] = value;
  }
  return expected === undefined ? { input, tags } : { input, expected, tags };
}

/** null means "no expected answer" (datasetItemInputSchema). */
export const expectedValue = (value: unknown) => (value === null ? undefined : value);

/**
 * Tags from text ("billing, refunds" or "billing; refunds") or an array, trimmed, without empty ones
 * or repeats; what datasetItemInputSchema would refuse is left out and counted for one note.
 */
export class TagNotes {
  private dropped = 0;

  tags(value: unknown): string[] {
    const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,;]/) : [value];
    const tags: string[] = [];
    for (const entry of raw) {
      if (typeof entry !== 'string' && typeof entry !== 'number') continue;
      const tag = String(entry).trim();
      if (!tag || tags.includes(tag)) continue;
      if (tag.length > TAG_MAX_LENGTH || tags.length >= TAGS_PER_ITEM) this.dropped++;
      else tags.push(tag);
    }
    return tags;
  }

  report(notes: ImportNotes) {
    if (this.dropped === 0) return;
    notes.note(
      `${this.dropped} ${this.dropped === 1 ? 'tag was' : 'tags were'} left out: a tag holds at most ${TAG_MAX_LENGTH} characters, an item at most ${TAGS_PER_ITEM} tags`,
    );
  }
}

/** Field names in first-seen order over the first 1,000 records (what the preview offers for the mapping). */
export function columnsOf(records: Iterable<Record<string, unknown>>): string[] {
  const columns = new Set<string>();
  let seen = 0;
  for (const record of records) {
    if (seen++ >= 1000) break;
    for (const name of Object.keys(record)) columns.add(name);
  }
  return [...columns];
}
