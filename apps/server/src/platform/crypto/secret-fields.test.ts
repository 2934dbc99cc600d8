import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from './mask';
import { maskFields, sealFields, unsealFields } from './secret-fields';
import { createSecretBox, isSealed, SecretDecryptError } from './secrets';

const box = createSecretBox(randomBytes(32));
const org = 'org_1';
const keys = ['apiKey', 'password'];
const apiKey = 'sk-live-0123456789abcdef';

describe('sealFields', () => {
  it('encrypts plaintext secrets and leaves other fields alone', () => {
    const sealed = sealFields({ baseUrl: 'https://api.example.test', apiKey }, keys, undefined, box, org);
    expect(sealed.baseUrl).toBe('https://api.example.test');
    expect(isSealed(sealed.apiKey)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain(apiKey);
    expect(box.decrypt(sealed.apiKey as string, org)).toBe(apiKey);
    expect('password' in sealed).toBe(false);
  });

  it('keeps the previous secret when the mask is sent back', () => {
    const previous = sealFields({ apiKey }, keys, undefined, box, org);
    const shown = maskFields(previous, keys, box, org);
    expect(shown.apiKey).toBe('••••••••cdef');
    const next = sealFields({ ...shown, baseUrl: 'https://new.example.test' }, keys, previous, box, org);
    expect(next.apiKey).toBe(previous.apiKey);
    expect(next.baseUrl).toBe('https://new.example.test');
    // The plain mask (e.g. a client that never fetched the hint) keeps it too.
    expect(sealFields({ apiKey: SECRET_MASK }, keys, previous, box, org).apiKey).toBe(previous.apiKey);
  });

  it('keeps the previous secret when the field is left out', () => {
    const previous = sealFields({ apiKey }, keys, undefined, box, org);
    expect(sealFields({ other: 1 }, keys, previous, box, org)).toEqual({ other: 1, apiKey: previous.apiKey });
  });

  it('replaces the secret when a new value is sent', () => {
    const previous = sealFields({ apiKey }, keys, undefined, box, org);
    const next = sealFields({ apiKey: 'sk-live-new-value-9999' }, keys, previous, box, org);
    expect(next.apiKey).not.toBe(previous.apiKey);
    expect(box.decrypt(next.apiKey as string, org)).toBe('sk-live-new-value-9999');
  });

  it('clears the secret on an empty string or null', () => {
    const previous = sealFields({ apiKey, password: 'hunter2' }, keys, undefined, box, org);
    const next = sealFields({ apiKey: '', password: null }, keys, previous, box, org);
    expect(next).toEqual({});
  });

  it('does not store the mask itself when there is nothing to keep', () => {
    expect(sealFields({ apiKey: SECRET_MASK }, keys, undefined, box, org)).toEqual({});
    // A previous value that is not sealed is never carried over in the clear.
    expect(sealFields({ apiKey: SECRET_MASK }, keys, { apiKey: 'plaintext' }, box, org)).toEqual({});
  });

  it('encrypts input that merely looks sealed instead of trusting it', () => {
    const foreign = createSecretBox(randomBytes(32)).encrypt('theirs', 'org_2');
    const sealed = sealFields({ apiKey: foreign }, keys, undefined, box, org);
    expect(sealed.apiKey).not.toBe(foreign);
    expect(box.decrypt(sealed.apiKey as string, org)).toBe(foreign);
  });

  it('refuses a secret that is not a string', () => {
    expect(() => sealFields({ apiKey: 42 }, keys, undefined, box, org)).toThrow(/"apiKey" must be a string/);
  });
});

describe('unsealFields', () => {
  it('decrypts the secret fields for internal use', () => {
    const sealed = sealFields({ apiKey, password: 'hunter2', port: 5432 }, keys, undefined, box, org);
    expect(unsealFields(sealed, keys, box, org)).toEqual({ apiKey, password: 'hunter2', port: 5432 });
  });

  it('throws for another organization', () => {
    const sealed = sealFields({ apiKey }, keys, undefined, box, org);
    expect(() => unsealFields(sealed, keys, box, 'org_2')).toThrow(SecretDecryptError);
  });
});

describe('maskFields', () => {
  it('replaces sealed values with masks and never shows the plaintext', () => {
    const sealed = sealFields({ apiKey, password: 'hunter2', user: 'app' }, keys, undefined, box, org);
    const shown = maskFields(sealed, keys, box, org);
    expect(shown).toEqual({ apiKey: '••••••••cdef', password: SECRET_MASK, user: 'app' });
    expect(JSON.stringify(shown)).not.toContain('hunter2');
    expect(JSON.stringify(shown)).not.toContain(apiKey);
  });

  it('shows the plain mask for a value that does not decrypt, without echoing it', () => {
    const shown = maskFields(
      { apiKey: 'stored-in-the-clear-by-mistake', password: { nested: 'x' } },
      keys,
      box,
      org,
    );
    expect(shown).toEqual({ apiKey: SECRET_MASK, password: SECRET_MASK });
  });
});
