import { z } from 'zod';

/**
 * A keyset cursor over rows ordered by a time and an id, newest first (the run list, the audit log):
 * the last row's exact time, as Postgres prints it (microseconds kept), and its id.
 */
export type TimeCursor = { at: string; id: string };

const atPattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** The cursor is opaque to clients: base64url of its time and id. */
export const encodeTimeCursor = (cursor: TimeCursor): string =>
  Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');

function decodeTimeCursor(value: string): TimeCursor | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [at, id] = decoded as unknown[];
    if (typeof at !== 'string' || !atPattern.test(at)) return undefined;
    if (!z.uuid().safeParse(id).success) return undefined;
    return { at, id: id as string };
  } catch {
    return undefined;
  }
}

/** A list query's `cursor`, decoded: one this server did not make is a 400, never an empty page. */
export const timeCursorField = z
  .string()
  .transform((value, ctx) => {
    const cursor = decodeTimeCursor(value);
    if (!cursor) ctx.addIssue({ code: 'custom', message: 'Invalid cursor' });
    return cursor;
  })
  .optional();
