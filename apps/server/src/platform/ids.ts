import { NotFoundError } from './errors';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => uuidPattern.test(value);

/** A route id that is not a UUID cannot name a row: answer 404 instead of letting Postgres fail. */
export function requireUuid(value: string, what = 'Not found'): string {
  if (!uuidPattern.test(value)) throw new NotFoundError(what);
  return value.toLowerCase();
}
