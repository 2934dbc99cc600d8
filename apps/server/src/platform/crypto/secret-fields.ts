import { isMask, mask, SECRET_MASK } from './mask';
import { isSealed, type SecretBox, SecretDecryptError } from './secrets';

/**
 * Secrets inside JSON configs (a tool's API key, a database connection string). `secretKeys` name
 * top-level fields; every other field passes through untouched. Stored configs hold sealed values,
 * responses hold masks, and only code that talks to the outside world sees plaintext.
 */

type Config = Record<string, unknown>;

/**
 * Prepares a config from a request for storage, given what is stored now (`previous`):
 * - a plaintext string is encrypted (even one that looks sealed: input is never trusted as sealed);
 * - a mask (what responses show) or an absent field keeps the previous sealed value, so a form
 *   or API client that does not touch a secret cannot wipe or overwrite it by accident;
 * - an empty string or null clears the secret (the field is left out).
 */
export function sealFields(
  config: Config,
  secretKeys: readonly string[],
  previous: Config | undefined,
  box: SecretBox,
  organizationId: string,
): Config {
  const result: Config = { ...config };
  for (const key of secretKeys) {
    const value = config[key];
    delete result[key];
    if (value === '' || value === null) continue;
    if (value === undefined || (typeof value === 'string' && isMask(value))) {
      const kept = previous?.[key];
      // Only a sealed value is carried over: anything else there would be stored in the clear.
      if (isSealed(kept)) result[key] = kept;
      continue;
    }
    if (typeof value !== 'string') throw new TypeError(`The secret field "${key}" must be a string`);
    result[key] = box.encrypt(value, organizationId);
  }
  return result;
}

/** Decrypts the secret fields for internal use (calling the tool); throws SecretDecryptError. */
export function unsealFields(
  config: Config,
  secretKeys: readonly string[],
  box: SecretBox,
  organizationId: string,
): Config {
  const result: Config = { ...config };
  for (const key of secretKeys) {
    const value = config[key];
    if (typeof value === 'string' && value !== '') result[key] = box.decrypt(value, organizationId);
  }
  return result;
}

/**
 * For responses. Decrypts to show the same hint mask() gives (last 4 characters of long secrets),
 * which lets a user tell which key is configured; a value that does not decrypt (another key,
 * corrupted, never sealed) shows the plain mask rather than failing a whole listing or leaking it.
 */
export function maskFields(
  config: Config,
  secretKeys: readonly string[],
  box: SecretBox,
  organizationId: string,
): Config {
  const result: Config = { ...config };
  for (const key of secretKeys) {
    const value = config[key];
    if (value === undefined || value === null || value === '') continue;
    result[key] = typeof value === 'string' ? maskSealed(value, box, organizationId) : SECRET_MASK;
  }
  return result;
}

function maskSealed(sealed: string, box: SecretBox, organizationId: string) {
  try {
    return mask(box.decrypt(sealed, organizationId));
  } catch (error) {
    if (error instanceof SecretDecryptError) return SECRET_MASK;
    throw error;
  }
}
