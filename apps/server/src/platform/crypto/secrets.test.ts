import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, isSealed, SecretDecryptError } from './secrets';

const key = randomBytes(32);
const box = createSecretBox(key);
const org = 'org_1';
const secret = 'sk-live-4f9a2b7c1d8e6f3a';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('createSecretBox', () => {
  it('round-trips, including empty and non-ASCII text', () => {
    for (const text of [secret, '', 'pässwörd 🔑 秘密', 'x'.repeat(10_000)]) {
      expect(box.decrypt(box.encrypt(text, org), org)).toBe(text);
    }
  });

  it('produces v1:<iv>:<ciphertext>:<tag> with a 12-byte IV and a 16-byte tag', () => {
    const sealed = box.encrypt(secret, org);
    const [version, iv, ciphertext, tag, ...rest] = sealed.split(':');
    expect(version).toBe('v1');
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(ciphertext, 'base64url')).toHaveLength(Buffer.byteLength(secret));
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(rest).toEqual([]);
    expect(isSealed(sealed)).toBe(true);
  });

  it('uses a different IV every time', () => {
    const sealed = Array.from({ length: 50 }, () => box.encrypt(secret, org));
    const ivs = new Set(sealed.map((s) => s.split(':')[1]));
    expect(ivs.size).toBe(50);
    expect(new Set(sealed).size).toBe(50);
  });

  it('never shows the plaintext in the sealed output', () => {
    const sealed = box.encrypt(secret, org);
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'));
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64'));
    expect(sealed).not.toContain(Buffer.from(secret).toString('hex'));
  });

  it('refuses a blob copied to another organization', () => {
    const error = thrown(() => box.decrypt(box.encrypt(secret, org), 'org_2'));
    expect(error).toBeInstanceOf(SecretDecryptError);
    expect((error as Error).message).not.toContain(secret);
  });

  it('once it opened a value (which it then remembers), still opens it for that organization only', () => {
    const sealed = box.encrypt(secret, org);
    expect(box.decrypt(sealed, org)).toBe(secret);
    expect(box.decrypt(sealed, org)).toBe(secret);
    expect(() => box.decrypt(sealed, 'org_2')).toThrow(SecretDecryptError);
    expect(() => box.decrypt(sealed, `${org}\n`)).toThrow(SecretDecryptError);
    expect(() => createSecretBox(randomBytes(32)).decrypt(sealed, org)).toThrow(SecretDecryptError);
    // Past what it remembers, the oldest values are opened again, as well as ever.
    const many = Array.from({ length: 1_001 }, (_, i) => box.encrypt(`secret ${i}`, org));
    many.forEach((value, i) => expect(box.decrypt(value, org)).toBe(`secret ${i}`));
    expect(box.decrypt(sealed, org)).toBe(secret);
    expect(box.decrypt(many[0], org)).toBe('secret 0');
  });

  it('refuses a blob sealed with another key', () => {
    const other = createSecretBox(randomBytes(32));
    expect(() => other.decrypt(box.encrypt(secret, org), org)).toThrow(SecretDecryptError);
  });

  it('refuses any tampering with IV, ciphertext, tag or version', () => {
    const sealed = box.encrypt(secret, org);
    const [version, iv, ciphertext, tag] = sealed.split(':');
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] ^= 1;
      return bytes.toString('base64url');
    };
    const tampered = [
      [version, flip(iv), ciphertext, tag],
      [version, iv, flip(ciphertext), tag],
      [version, iv, ciphertext, flip(tag)],
      ['v2', iv, ciphertext, tag],
      [version, iv, ciphertext.slice(0, -2), tag],
      [version, iv, ciphertext, tag.slice(0, -1)],
    ].map((parts) => parts.join(':'));
    for (const blob of [...tampered, '', 'not sealed', `${sealed}:extra`, secret]) {
      const error = thrown(() => box.decrypt(blob, org));
      expect(error, blob).toBeInstanceOf(SecretDecryptError);
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('needs a 32-byte key and an organization id', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => box.encrypt(secret, '')).toThrow(/organizationId/);
  });

  it('is not affected by later changes to the key buffer', () => {
    const mutable = Buffer.from(key);
    const own = createSecretBox(mutable);
    const sealed = own.encrypt(secret, org);
    mutable.fill(0);
    expect(own.decrypt(sealed, org)).toBe(secret);
    expect(box.decrypt(sealed, org)).toBe(secret);
  });
});
