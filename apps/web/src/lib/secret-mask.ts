// Stored secrets come back from the API as a mask; these rules decide what a secret field sends.

/** A secret as the server answers it: `••••••••abcd`. Sending it back unchanged keeps the stored value. */
export function isMaskedSecret(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('••');
}

/**
 * A keystroke in a field that holds a stored secret's mask replaces the whole mask: what was typed
 * (or pasted) is the new value, and deleting any of it clears the field. A value without mask
 * characters left is taken as is (the user replaced everything).
 */
export function editSecret(previous: string, next: string): string {
  if (!isMaskedSecret(previous) || next === previous || !next.includes('•')) return next;
  let start = 0;
  while (start < previous.length && start < next.length && previous[start] === next[start]) start++;
  let endPrevious = previous.length;
  let endNext = next.length;
  while (endPrevious > start && endNext > start && previous[endPrevious - 1] === next[endNext - 1]) {
    endPrevious--;
    endNext--;
  }
  return next.slice(start, endNext);
}
