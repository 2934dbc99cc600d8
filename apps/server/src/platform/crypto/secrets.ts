import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';

/**
 * Credentials at rest (docs/security.md): AES-256-GCM with a random 96-bit IV per value and the
 * organization id as associated data, so a sealed value copied into another organization's row
 * does not decrypt. Sealed format: `v1:<base64url iv>:<base64url ciphertext>:<base64url tag>`;
 * the version prefix leaves room for a key rotation or another algorithm later.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** Values a box keeps opened: far more than the secrets an installation's runs use at once. */
const OPENED_REMEMBERED = 1_000;

// base64url of exactly 12 bytes is 16 characters and of 16 bytes 22; Node's decoder skips invalid
// characters silently, so the shape is checked before decoding.
const sealedPattern = /^v1:([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]*):([A-Za-z0-9_-]{22})$/;

/** Never carries the plaintext or the sealed value: it may end up in logs. */
export class SecretDecryptError extends Error {
  override readonly name = 'SecretDecryptError';

  constructor(options?: { cause?: unknown }) {
    super(
      'A stored secret could not be decrypted: it was altered, belongs to another organization or was sealed with another key',
      options,
    );
  }
}

export type SecretBox = {
  encrypt(plaintext: string, organizationId: string): string;
  decrypt(sealed: string, organizationId: string): string;
};

/** True when the value has the shape encrypt() produces (says nothing about which key or organization). */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && sealedPattern.test(value);
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new TypeError(`The encryption key must be ${KEY_BYTES} bytes`);
  // A KeyObject holds its own copy: clearing or reusing the caller's buffer cannot change it.
  const secretKey = createSecretKey(Buffer.from(key));
  /**
   * Values opened lately, by organization and sealed text: every run opens its model connection's
   * key, and a decipher costs more than the rest of reading it. What a value opens to never changes
   * (the key is the box's), a changed secret is sealed anew with a new IV, and a value that fails
   * to open is never kept. The process holds the key that opens them all anyway.
   */
  const opened = new Map<string, string>();

  return {
    encrypt(plaintext, organizationId) {
      const aad = associatedData(organizationId);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secretKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, ciphertext, tag]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },

    decrypt(sealed, organizationId) {
      const aad = associatedData(organizationId);
      // A value that opened matches the sealed pattern, which has no line break.
      const remembered = `${sealed}\n${organizationId}`;
      const known = opened.get(remembered);
      if (known !== undefined) return known;
      const match = sealedPattern.exec(sealed);
      if (!match) throw new SecretDecryptError();
      const [, iv, ciphertext, tag] = match;
      try {
        const decipher = createDecipheriv('aes-256-gcm', secretKey, Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(aad);
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const plaintext = Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]);
        const text = plaintext.toString('utf8');
        opened.set(remembered, text);
        if (opened.size > OPENED_REMEMBERED) opened.delete(opened.keys().next().value!);
        return text;
      } catch (error) {
        throw new SecretDecryptError({ cause: error });
      }
    },
  };
}

// An empty id would bind every secret to "no organization" and defeat the point of the AAD.
function associatedData(organizationId: string) {
  if (!organizationId) throw new TypeError('organizationId is required to seal or open a secret');
  return Buffer.from(organizationId, 'utf8');
}
