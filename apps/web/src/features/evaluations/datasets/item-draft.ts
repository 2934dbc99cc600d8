// The Add item dialog's rules: the input is a JSON object (what a run starts with), the expected answer
// text or, with 'Treat as JSON', any JSON value, and the tags a comma-separated list.
import type { DatasetItemInput } from '@crewline/contracts';

export type ItemDraft = { input: string; expected: string; expectedIsJson: boolean; tags: string };
export type ItemDraftErrors = Partial<Record<'input' | 'expected' | 'tags', string>>;

export const EMPTY_ITEM: ItemDraft = { input: '{\n  \n}', expected: '', expectedIsJson: false, tags: '' };

/** 'a, b,,c ' → ['a', 'b', 'c'], each once. */
function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ];
}

export function itemFromDraft(
  draft: ItemDraft,
): { item: DatasetItemInput; errors: null } | { item: null; errors: ItemDraftErrors } {
  const errors: ItemDraftErrors = {};
  let input: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(draft.input);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      input = parsed as Record<string, unknown>;
    else errors.input = 'The input must be a JSON object, e.g. { "question": "…" }';
  } catch {
    errors.input = 'This is not valid JSON';
  }
  let expected: unknown;
  if (draft.expectedIsJson && draft.expected.trim()) {
    try {
      expected = JSON.parse(draft.expected) as unknown;
    } catch {
      errors.expected = 'This is not valid JSON';
    }
  } else if (draft.expected.trim()) {
    expected = draft.expected;
  }
  const tags = parseTags(draft.tags);
  if (tags.some((tag) => tag.length > 50)) errors.tags = 'A tag has at most 50 characters';
  else if (tags.length > 20) errors.tags = 'At most 20 tags';
  if (Object.keys(errors).length > 0) return { item: null, errors };
  return { item: { input, ...(expected === undefined ? {} : { expected }), tags }, errors: null };
}

/** A JSON value on one line for a table cell; text as it is. */
export function compactJson(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A JSON value laid out for reading; text as it is. */
export function prettyJson(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
