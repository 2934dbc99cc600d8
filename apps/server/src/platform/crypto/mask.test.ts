import { describe, expect, it } from 'vitest';
import { isMask, mask, SECRET_MASK } from './mask';

describe('mask', () => {
  it('shows the last 4 characters of a secret of 12 or more characters', () => {
    expect(mask('sk-abcdefghijkl')).toBe('••••••••ijkl');
    expect(mask('123456789012')).toBe('••••••••9012');
  });

  it('shows nothing of a shorter secret', () => {
    expect(mask('12345678901')).toBe(SECRET_MASK);
    expect(mask('abcd')).toBe('••••••••');
    expect(mask('')).toBe('••••••••');
  });

  it('never reveals more than the last 4 characters, nor a whole secret', () => {
    const samples = [
      'a',
      'ab',
      'abcd',
      'abcde',
      'hunter2',
      '12345678901',
      '123456789012',
      'x'.repeat(200),
      'key🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑',
    ];
    for (const secret of samples) {
      const masked = mask(secret);
      const shown = masked.slice(SECRET_MASK.length);
      expect(masked.startsWith(SECRET_MASK)).toBe(true);
      expect(Array.from(shown).length).toBeLessThanOrEqual(4);
      expect(secret.endsWith(shown)).toBe(true);
      if (secret.length > 0) expect(masked).not.toContain(secret);
    }
  });

  it('does not cut an astral character in half', () => {
    expect(mask('0123456789🔑🔑🔑🔑')).toBe('••••••••🔑🔑🔑🔑');
  });
});

describe('isMask', () => {
  it('recognises everything mask() produces', () => {
    for (const secret of ['short', 'a-much-longer-secret', '0123456789🔑🔑🔑🔑', 'xxxxxxxx••••']) {
      expect(isMask(mask(secret))).toBe(true);
    }
  });

  it('rejects real values', () => {
    for (const value of ['', 'sk-abcdefghijkl', '•••••••', '••••••••abc', '••••••••abcde', 'x••••••••abcd']) {
      expect(isMask(value), value).toBe(false);
    }
  });
});
