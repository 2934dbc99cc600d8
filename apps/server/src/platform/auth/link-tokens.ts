import { createHash, randomBytes } from 'node:crypto';

/**
 * The secret of a single-use link (an invitation, an email verification, a password reset): 32 random
 * bytes as base64url, 43 URL-safe characters. Only its hash is stored.
 */
export const newLinkToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a link's token, and looked up by: its SHA-256, in hex. */
export const hashLinkToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');
