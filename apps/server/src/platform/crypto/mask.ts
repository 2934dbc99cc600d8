/**
 * What responses show instead of a stored credential (docs/security.md: write-only secrets). Only the
 * last 4 characters, and only of secrets long enough (≥ 12) that 4 characters leave ≥ 8 unknown.
 */
export const SECRET_MASK = '••••••••';

const MIN_LENGTH_FOR_HINT = 12;
const HINT_LENGTH = 4;

export function mask(secret: string): string {
  // Code points, so an emoji or other astral character is never cut in half.
  const characters = Array.from(secret);
  if (characters.length < MIN_LENGTH_FOR_HINT) return SECRET_MASK;
  return SECRET_MASK + characters.slice(-HINT_LENGTH).join('');
}

/** True for anything mask() can return, so a form that sends the mask back keeps the stored secret. */
export function isMask(value: string): boolean {
  if (!value.startsWith(SECRET_MASK)) return false;
  const hint = Array.from(value.slice(SECRET_MASK.length));
  return hint.length === 0 || hint.length === HINT_LENGTH;
}

/**
 * A URL as responses and logs show it: its origin, and `/…` when it has more. Webhook URLs (Slack,
 * Teams, Zapier…) carry their secret in the path or query.
 */
export function maskUrl(value: string): string {
  const url = new URL(value);
  return url.pathname === '/' && !url.search ? url.origin : `${url.origin}/…`;
}
