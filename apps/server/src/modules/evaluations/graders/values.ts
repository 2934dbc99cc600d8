// How graders read the values they compare (grade-item.ts has the rules): as text, as JSON, as a number.

/** One grader's verdict before its name and threshold are applied. */
export type Verdict = { score: number; reason: string };

/** Reasons quote values at most this long: a result table cell, not a dump. */
const QUOTED_MAX_CHARS = 200;

/** The text of a value: a string as it is, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** Text cut at `max` characters, with '…' when cut. */
export function cut(text: string, max = QUOTED_MAX_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A value as a reason quotes it: its text in quotes, on one line, cut. */
export function quoted(value: unknown): string {
  return JSON.stringify(cut(textOf(value).replace(/\s+/g, ' ').trim()));
}

/** A JSON value as a reason shows it: its JSON on one line, cut (`"A1"`, `{"a":1}`). */
export function shownJson(value: unknown): string {
  return cut(JSON.stringify(value) ?? 'nothing');
}

/** A value as JSON: a string holding JSON is parsed; `ok: false` when it holds none. Other values are as they are. */
export function asJson(value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof value !== 'string') return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch {
    return { ok: false };
  }
}

/** The value at a dotted path (`a.b.0.c`: a number indexes a list); `found: false` when a part is missing. */
export function valueAtPath(
  value: unknown,
  path: string,
): { found: true; value: unknown } | { found: false } {
  let current = value;
  for (const part of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(part) && Number(part) < current.length) {
      current = current[Number(part)];
    } else if (isRecord(current) && Object.hasOwn(current, part)) {
      current = current[part];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** Deep equality of JSON values; objects' key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => jsonEqual(item, b[index]))
    );
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a).filter((key) => a[key] !== undefined);
  const other = Object.keys(b).filter((key) => b[key] !== undefined);
  return (
    keys.length === other.length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
  );
}

/** A number, or a string that is one (`" 3.5 "`); null for anything else. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || !value.trim()) return null;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : null;
}

/** A number as a reason shows it: at most 6 significant digits. */
export function formatNumber(value: number): string {
  return String(Number(value.toPrecision(6)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
