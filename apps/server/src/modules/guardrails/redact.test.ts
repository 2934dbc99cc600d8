import { describe, expect, it } from 'vitest';
import { redact } from './redact';

describe('redact', () => {
  it('replaces each finding by its kind, offsets being those of the original text', () => {
    const text = 'Mail ana@example.com, card 4111 1111 1111 1111, key ghp_x.';
    const findings = [
      { check: 'pii', kind: 'email', start: 5, end: 20 },
      { check: 'pii', kind: 'card', start: 27, end: 46 },
      { check: 'secrets', kind: 'github_token', start: 52, end: 57 },
    ] as const;
    expect(redact(text, findings)).toBe('Mail [EMAIL], card [CARD], key [SECRET].');
  });

  it('works in any order of findings', () => {
    const findings = [
      { check: 'pii', kind: 'phone', start: 10, end: 13 },
      { check: 'pii', kind: 'email', start: 0, end: 3 },
    ] as const;
    expect(redact('abc def g 123 end', findings)).toBe('[EMAIL] def g [PHONE] end');
  });

  it('merges overlapping findings into one replacement, a secret naming it', () => {
    const text = 'see postgres://ana@example.com:pw@db/app now';
    const findings = [
      { check: 'pii', kind: 'email', start: 15, end: 30 },
      { check: 'secrets', kind: 'connection_string', start: 4, end: 40 },
    ] as const;
    expect(redact(text, findings)).toBe('see [SECRET] now');
    // Two PII findings that overlap: the longer names the merged span.
    expect(
      redact('0123456789', [
        { check: 'pii', kind: 'phone', start: 0, end: 4 },
        { check: 'pii', kind: 'card', start: 2, end: 9 },
      ]),
    ).toBe('[CARD]9');
  });

  it('keeps adjacent findings apart, and the text as it was when there are none', () => {
    expect(
      redact('ab', [
        { check: 'pii', kind: 'ip', start: 0, end: 1 },
        { check: 'pii', kind: 'ip', start: 1, end: 2 },
      ]),
    ).toBe('[IP][IP]');
    expect(redact('nothing here', [])).toBe('nothing here');
  });

  it('keeps to the text when offsets run past it', () => {
    expect(redact('short', [{ check: 'pii', kind: 'email', start: 2, end: 99 }])).toBe('sh[EMAIL]');
  });
});
