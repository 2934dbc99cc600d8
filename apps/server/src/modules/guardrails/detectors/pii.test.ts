import { describe, expect, it } from 'vitest';
import { detectPii, luhn } from './pii';

/** What was found, as `kind:text` pairs, so a test reads like the text it checks. */
const found = async (text: string, options?: Parameters<typeof detectPii>[1]) =>
  (await detectPii(text, options)).map((s) => `${s.kind}:${text.slice(s.start, s.end)}`);

describe('detectPii', () => {
  it('finds email addresses, and not an @ without a domain', async () => {
    expect(await found('Write to ana.garcia+crm@example.co.uk or josé@correo.es.')).toEqual([
      'email:ana.garcia+crm@example.co.uk',
      'email:josé@correo.es',
    ]);
    expect(await found('ping @ana on chat, or user@localhost')).toEqual([]);
  });

  it('finds phone numbers, international and in the national formats of the countries', async () => {
    expect(await found('Call +44 20 7946 0958 or +1 415-555-2671 today.')).toEqual([
      'phone:+44 20 7946 0958',
      'phone:+1 415-555-2671',
    ]);
    expect(await found('US office (415) 555-2671')).toEqual(['phone:(415) 555-2671']);
    expect(await found('Appelez le 06 12 34 56 78 demain')).toEqual(['phone:06 12 34 56 78']);
    expect(await found('Llama al 612 345 678 mañana')).toEqual(['phone:612 345 678']);
  });

  it('does not take bare numbers, dates or times for phone numbers', async () => {
    expect(await found('Order 123456789 shipped on 2026-05-06 at 10:30, invoice 20261234.')).toEqual([]);
  });

  it('finds national-format phone numbers only of the countries asked for', async () => {
    expect(await found('Llama al 612 345 678', { entities: ['phone'], countries: ['us'] })).toEqual([]);
  });

  it('finds Luhn-valid card numbers, grouped or in one piece; a 16-digit number failing Luhn is not a card', async () => {
    expect(await found('Card 4111 1111 1111 1111, or 4111-1111-1111-1111, or 5555555555554444.')).toEqual([
      'card:4111 1111 1111 1111',
      'card:4111-1111-1111-1111',
      'card:5555555555554444',
    ]);
    expect(await found('Amex 3782 822463 10005 exp 12 29')).toEqual(['card:3782 822463 10005']);
    expect(await found('Card 4111 1111 1111 1112')).toEqual([]);
    expect(await found('Ref 4111111111111112')).toEqual([]);
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
  });

  it('does not cut a card out of a longer number or an oddly grouped one', async () => {
    // Luhn-valid 16 digits inside a 20-digit reference, and in groups no card is printed in.
    expect(await found('Ref 41111111111111111234 and 41 1111 111 111 11 11')).toEqual([]);
  });

  it('finds IBANs by their checksum, spaced or not', async () => {
    expect(await found('Pay DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432 (BIC WESTGB2L).')).toEqual([
      'iban:DE89 3704 0044 0532 0130 00',
      'iban:GB82WEST12345698765432',
    ]);
    expect(await found('Pay DE89 3704 0044 0532 0130 01')).toEqual([]);
  });

  it('finds IPv4 and IPv6 addresses, and not versions, times or C++ names', async () => {
    expect(await found('From 192.168.1.20 and 2001:db8::8a2e:370:7334, then fe80::1.')).toEqual([
      'ip:192.168.1.20',
      'ip:2001:db8::8a2e:370:7334',
      'ip:fe80::1',
    ]);
    expect(await found('Not 999.1.1.1, v1.2.3, 12:30:45, std::vector or a::b')).toEqual([]);
  });

  it('finds US SSNs, not the never-issued ones', async () => {
    expect(await found('SSN 123-45-6789')).toEqual(['national_id:123-45-6789']);
    expect(
      await found('000-12-3456, 912-12-3456, 123-00-4567, 123-45-0000, 078-05-1120', {
        entities: ['national_id'],
      }),
    ).toEqual([]);
  });

  it('finds UK NINOs, not with prefixes HMRC never uses', async () => {
    expect(await found('NI AB 12 34 56 C and CE123456D')).toEqual([
      'national_id:AB 12 34 56 C',
      'national_id:CE123456D',
    ]);
    expect(await found('QQ123456C GB123456A AB123456E')).toEqual([]);
  });

  it('finds Spanish DNIs and NIEs by their check letter', async () => {
    expect(await found('DNI 12345678Z, NIE X1234567L')).toEqual([
      'national_id:12345678Z',
      'national_id:X1234567L',
    ]);
    expect(await found('DNI 12345678A, NIE X1234567A')).toEqual([]);
  });

  it('finds French NIRs by their key, Corsican ones too', async () => {
    expect(await found('NIR 1 84 12 76 451 089 46 and 184127645108946')).toEqual([
      'national_id:1 84 12 76 451 089 46',
      'national_id:184127645108946',
    ]);
    expect(await found('NIR 1 84 12 76 451 089 47')).toEqual([]);
    // 2A counts as 19 in the key: 97 - (1841219451089 mod 97).
    const key = 97n - (1841219451089n % 97n);
    expect(await found(`NIR 1 84 12 2A 451 089 ${String(key).padStart(2, '0')}`)).toHaveLength(1);
  });

  it('finds Italian codici fiscali by their check character', async () => {
    expect(await found('CF RSSMRA85T10A562S')).toEqual(['national_id:RSSMRA85T10A562S']);
    expect(await found('CF RSSMRA85T10A562T')).toEqual([]);
  });

  it('finds Dutch BSNs that pass the 11-proof', async () => {
    expect(await found('BSN 111222333 or 1112.22.333', { entities: ['national_id'] })).toEqual([
      'national_id:111222333',
      'national_id:1112.22.333',
    ]);
    expect(await found('BSN 111222334', { entities: ['national_id'] })).toEqual([]);
  });

  it('looks only for the entities and countries asked for', async () => {
    const text = 'ana@example.com, 4111 1111 1111 1111, SSN 123-45-6789, DNI 12345678Z';
    expect(await found(text, { entities: ['card'] })).toEqual(['card:4111 1111 1111 1111']);
    expect(await found(text, { entities: ['national_id'], countries: ['es'] })).toEqual([
      'national_id:12345678Z',
    ]);
  });

  it('gives offsets in UTF-16 code units, sorted, never overlapping', async () => {
    const text = '😀 é ana@example.com 😀 4111 1111 1111 1111';
    const spans = await detectPii(text);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['ana@example.com', '4111 1111 1111 1111']);
    expect(spans[0].start).toBe(5);
    // An IBAN's digits also pass as other numbers: the IBAN, the longest, is the one finding.
    const iban = 'DE89370400440532013000';
    expect(await detectPii(iban)).toEqual([{ kind: 'iban', start: 0, end: iban.length }]);
  });

  it('finds nothing in ordinary prose', async () => {
    expect(
      await found('The meeting moved to 3 pm; we shipped 1,250 units in Q3 2025 for 4.99 each.'),
    ).toEqual([]);
  });

  it('reads long digit-heavy text in linear time', async () => {
    // Each took seconds before phone reads were limited to phone-shaped runs and cards to card-shaped groups.
    for (const text of [
      '1 '.repeat(50_000),
      '12345678Z '.repeat(10_000),
      '1.'.repeat(50_000),
      '4111 '.repeat(20_000),
    ]) {
      const started = performance.now();
      await detectPii(text);
      expect(performance.now() - started, text.slice(0, 10)).toBeLessThan(3000);
    }
  });
});
