import { describe, expect, it } from 'vitest';

import { utf8Bytes } from './knowledge';

describe('utf8Bytes', () => {
  it('counts the bytes of a text as UTF-8, as the server stores it', () => {
    for (const text of ['', 'plain', 'café', '€ and ✓', 'emoji 😀 pair', '\u{10FFFF}', 'lone \ud800 half']) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text));
    }
  });
});
