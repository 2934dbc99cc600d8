/**
 * Whether an update has nothing to set: drizzle leaves undefined values out of the SET clause and throws
 * 'No values to set' on an empty one, e.g. for a PUT of `{}` or of only unknown or read-only fields
 * (validation drops those). Repositories answer the row as it is instead.
 */
export function nothingToSet(values: object): boolean {
  return Object.values(values).every((value) => value === undefined);
}
