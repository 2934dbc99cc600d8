// PII in text: emails, phone numbers, payment cards, IBANs, IP addresses and national identifiers
// (docs/decisions/0047-guardrail-detectors.md). Each candidate is checked the way its issuer checks
// it (Luhn, the IBAN checksum, a national identifier's check letter or key), so a number that only
// looks like one is not reported.
import { isIP } from 'node:net';
import { nationalIdCountryValues, piiEntityValues, type PiiEntity } from '@crewline/contracts';
import type { CountryCode } from 'libphonenumber-js/max';
import { withoutOverlaps, type Span } from './spans';
import { loadOnce } from '../../../platform/load-once';

export type NationalIdCountry = (typeof nationalIdCountryValues)[number];
export type PiiSpan = Span<PiiEntity>;

/**
 * libphonenumber-js (with its full metadata) and ibantools, each loaded by the first check that needs
 * it, not at start: together they cost ~7 MiB of memory in a server that never checks for PII.
 */
const loadPhones = loadOnce(() => import('libphonenumber-js/max').then((m) => m.findPhoneNumbersInText));

const loadIbans = loadOnce(() =>
  import('ibantools').then(({ getCountrySpecifications, isValidIBAN }) => ({
    isValidIBAN,
    /** Each country's IBAN length, by its code. */
    lengths: Object.fromEntries(
      Object.entries(getCountrySpecifications())
        .filter(([, spec]) => spec.chars)
        .map(([code, spec]) => [code, spec.chars as number]),
    ),
  })),
);

/** Between two overlapping matches of the same length, the one whose check is the stricter wins. */
const specificity: readonly PiiEntity[] = ['national_id', 'iban', 'card', 'email', 'ip', 'phone'];

/** All matches of a global regex, with their offsets. */
const matches = (text: string, pattern: RegExp) => [...text.matchAll(pattern)];

// Email: the common address shape (RFC 5322's dot-atom), a domain with a dot and a letter TLD.
const emailPattern =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,63}(?![\p{L}\p{N}-])/gu;

function emails(text: string): Span<'email'>[] {
  return matches(text, emailPattern).map((m) => ({
    kind: 'email',
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/**
 * Where a phone number could be: a run of digits with the separators numbers are written with, at
 * least 7 digits. libphonenumber-js reads only these runs, not the whole text: it is slow on long
 * digit-heavy text (seconds for 100 KB of "1 1 1 …"). A run longer than 64 characters is a table or
 * a list, not a phone number, and is not read.
 */
const phoneRunPattern = /(?<![\p{L}\p{N}_+])(?:\+|\(\+?)?\d[\d ().\u00A0/-]*\d\)?(?![\p{L}\p{N}_])/gu;
const MAX_PHONE_RUN = 64;

/**
 * How each country's national-format numbers look: how many digits (the trunk 0 included) and how
 * they start, so a run is only read for the countries it could belong to (a read costs tens of
 * microseconds, and a phone directory has thousands of runs).
 */
const nationalFormats: Record<NationalIdCountry, { digits: [number, number]; start: RegExp }> = {
  us: { digits: [10, 11], start: /^\(?(?:1[ .-]?)?\(?[2-9]/ },
  gb: { digits: [10, 11], start: /^\(?0/ },
  es: { digits: [9, 9], start: /^[6-9]/ },
  fr: { digits: [10, 10], start: /^\(?0/ },
  it: { digits: [7, 12], start: /^\(?[03]/ },
  nl: { digits: [10, 10], start: /^\(?0/ },
};

/**
 * Phone numbers through libphonenumber-js (its full metadata, so a number must fit its country's
 * numbering plan): international ones (+…) anywhere, 00… and national ones in the given countries'
 * formats. A match ends at its last digit or parenthesis. A national number in one bare run of
 * digits must start with its trunk 0: otherwise any nine-digit order or account number would be a
 * French or Dutch phone number.
 */
function phones(
  text: string,
  countries: readonly NationalIdCountry[],
  findPhoneNumbersInText: Awaited<ReturnType<typeof loadPhones>>,
): Span<'phone'>[] {
  const found: Span<'phone'>[] = [];
  const read = new Map<string, [number, number][]>();
  const numbersIn = (run: string): [number, number][] => {
    const digits = (run.match(/\d/g) ?? []).length;
    const international = /^\(?\+/.test(run);
    if (!international && /^\d+$/.test(run) && !run.startsWith('0')) return [];
    // 00 dials abroad from the European countries: any length, read as from each of them.
    const abroad = run.startsWith('00');
    const regions = international
      ? [undefined]
      : countries
          .filter((c) => {
            const format = nationalFormats[c];
            if (abroad) return true;
            return digits >= format.digits[0] && digits <= format.digits[1] && format.start.test(run);
          })
          .map((c) => c.toUpperCase() as CountryCode);
    const spans = new Map<string, [number, number]>();
    for (const country of regions) {
      for (const n of findPhoneNumbersInText(run, country && { defaultCountry: country })) {
        const number = /^[+\d\s().-]*[\d)]/.exec(run.slice(n.startsAt, n.endsAt))?.[0];
        if (number) spans.set(`${n.startsAt}:${number.length}`, [n.startsAt, n.startsAt + number.length]);
      }
      // The run is one number of this country: the others cannot find more in it.
      if (spans.has(`0:${run.length}`)) break;
    }
    return [...spans.values()];
  };
  for (const run of matches(text, phoneRunPattern)) {
    if (run[0].length > MAX_PHONE_RUN || (run[0].match(/\d/g) ?? []).length < 7) continue;
    // A text that repeats a number is read once per distinct run.
    let spans = read.get(run[0]);
    if (!spans) read.set(run[0], (spans = numbersIn(run[0])));
    for (const [start, end] of spans)
      found.push({ kind: 'phone', start: run.index + start, end: run.index + end });
  }
  return found;
}

/** The Luhn checksum of a string of digits. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

// Runs of digit groups separated by one space or dash: a card written 4111 1111 1111 1111, 4111-…
// or in one piece, maybe followed by other numbers (an expiry) in the same run.
const digitRunPattern = /(?<![\p{L}\p{N}_-]|\d[ -])\d+(?:[ -]\d+)*(?![\p{L}\p{N}_])/gu;

/**
 * How cards are printed: in one piece, in fours (the last group shorter on 13- and 19-digit cards),
 * or 4-6-5 and 4-6-4 (Amex, Diners).
 */
const cardShape = (lengths: number[]) =>
  lengths.length === 1 ||
  lengths.slice(0, -1).every((l) => l === 4) ||
  ['4,6,5', '4,6,4'].includes(lengths.join(','));

/**
 * Payment cards: 13 to 19 digits that pass Luhn, start as card numbers do (2 to 6: Mastercard's
 * 2-series, Amex and Diners 3, Visa 4, Mastercard 5, Discover and UnionPay 6) and are grouped as
 * cards are. Within a run of groups (a card and its expiry), the longest whole groups that form one
 * win; a group is never cut, and a run never starts inside a run of groups (an IBAN's tail).
 */
function cards(text: string): Span<'card'>[] {
  const found: Span<'card'>[] = [];
  for (const run of matches(text, digitRunPattern)) {
    const groups: { start: number; end: number; digits: string }[] = [];
    for (const g of run[0].matchAll(/\d+/g)) {
      groups.push({ start: run.index + g.index, end: run.index + g.index + g[0].length, digits: g[0] });
    }
    let i = 0;
    while (i < groups.length) {
      // The groups from i that hold at most 19 digits (a card's longest), tried longest first.
      // Printed cards start with a group of four: any other group can only be a card on its own.
      let last = i;
      if (groups[i].digits.length === 4) {
        let count = 4;
        while (last + 1 < groups.length && count + groups[last + 1].digits.length <= 19) {
          count += groups[++last].digits.length;
        }
      }
      let matched = 0;
      for (let j = last; j >= i && !matched; j--) {
        const part = groups.slice(i, j + 1);
        const digits = part.map((g) => g.digits).join('');
        if (!cardShape(part.map((g) => g.digits.length))) continue;
        if (digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && luhn(digits)) {
          found.push({ kind: 'card', start: groups[i].start, end: groups[j].end });
          matched = j - i + 1;
        }
      }
      i += matched || 1;
    }
  }
  return found;
}

/**
 * IBANs, in one piece or in groups separated by single spaces, checked with ibantools (the country's
 * length and BBAN format, and the mod-97 checksum).
 */
function ibans(
  text: string,
  { isValidIBAN, lengths }: Awaited<ReturnType<typeof loadIbans>>,
): Span<'iban'>[] {
  const found: Span<'iban'>[] = [];
  for (const m of matches(text, /(?<![\p{L}\p{N}])([A-Za-z]{2})\d{2}/gu)) {
    const length = lengths[m[1].toUpperCase()];
    if (!length) continue;
    let chars = m[0].toUpperCase();
    let end = m.index + m[0].length;
    while (chars.length < length && end < text.length) {
      const c = text[end] === ' ' && /[A-Za-z0-9]/.test(text[end + 1] ?? '') ? text[++end] : text[end];
      if (!/[A-Za-z0-9]/.test(c)) break;
      chars += c.toUpperCase();
      end++;
    }
    if (chars.length !== length || /[\p{L}\p{N}]/u.test(text[end] ?? '')) continue;
    if (isValidIBAN(chars)) found.push({ kind: 'iban', start: m.index, end });
  }
  return found;
}

/** IPv4 and IPv6 addresses, as node:net validates them. */
function ips(text: string): Span<'ip'>[] {
  const found: Span<'ip'>[] = [];
  for (const m of matches(text, /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\d|\.\d)/g)) {
    if (isIP(m[0]) === 4) found.push({ kind: 'ip', start: m.index, end: m.index + m[0].length });
  }
  // IPv6: hex groups and colons (an IPv4 tail allowed); at least two groups, so `a::b`-like
  // fragments of code and clock times (no `::`, too few groups) are not addresses.
  for (const m of matches(
    text,
    /(?<![\p{L}\p{N}_:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f.]{0,15}){2,8}(?![\p{L}\p{N}_:])/gu,
  )) {
    const candidate = m[0].replace(/\.$/, '');
    if (candidate.length < 6 || (candidate.match(/[0-9A-Fa-f]+/g) ?? []).length < 2) continue;
    if (isIP(candidate) === 6) found.push({ kind: 'ip', start: m.index, end: m.index + candidate.length });
  }
  return found;
}

/** US Social Security numbers, written with dashes or spaces, without the never-issued ones. */
function usSsns(text: string): Span<'national_id'>[] {
  return matches(text, /(?<![\p{L}\p{N}-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\p{L}\p{N}-])/gu)
    .filter(([value, area, , group, serial]) => {
      if (area === '000' || area === '666' || area >= '900') return false;
      if (group === '00' || serial === '0000') return false;
      // Numbers published in advertising and voided by the SSA.
      return !['078-05-1120', '219-09-9999'].includes(value.replaceAll(' ', '-'));
    })
    .map((m) => ({ kind: 'national_id', start: m.index, end: m.index + m[0].length }));
}

/** UK National Insurance numbers: HMRC's allowed prefix letters, six digits and a suffix A to D. */
function gbNinos(text: string): Span<'national_id'>[] {
  return matches(
    text,
    /(?<![\p{L}\p{N}])([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\p{L}\p{N}])/gu,
  )
    .filter((m) => !['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(m[1]))
    .map((m) => ({ kind: 'national_id', start: m.index, end: m.index + m[0].length }));
}

const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNIs (eight digits and a check letter) and NIEs (X, Y or Z, seven digits, the letter). */
function esIds(text: string): Span<'national_id'>[] {
  return matches(text, /(?<![\p{L}\p{N}])([XYZ]?)-?(\d{7,8})-?([A-Z])(?![\p{L}\p{N}])/gu)
    .filter(([, prefix, digits, letter]) => {
      if (prefix ? digits.length !== 7 : digits.length !== 8) return false;
      const number = Number(`${prefix ? 'XYZ'.indexOf(prefix) : ''}${digits}`);
      return dniLetters[number % 23] === letter;
    })
    .map((m) => ({ kind: 'national_id', start: m.index, end: m.index + m[0].length }));
}

/**
 * French NIRs (social security numbers): sex, year, month, department (2A and 2B for Corsica, which
 * count as 19 and 18 in the key), commune, order, and the key 97 − (number mod 97); spaces allowed
 * between the parts.
 */
function frNirs(text: string): Span<'national_id'>[] {
  return matches(
    text,
    /(?<![\p{L}\p{N}])([12]) ?(\d{2}) ?(\d{2}) ?(\d{2}|2[AB]) ?(\d{3}) ?(\d{3}) ?(\d{2})(?![\p{L}\p{N}])/gu,
  )
    .filter(([, sex, year, month, department, commune, order, key]) => {
      const dept = department === '2A' ? '19' : department === '2B' ? '18' : department;
      const number = BigInt(`${sex}${year}${month}${dept}${commune}${order}`);
      return 97n - (number % 97n) === BigInt(key);
    })
    .map((m) => ({ kind: 'national_id', start: m.index, end: m.index + m[0].length }));
}

// The codice fiscale's check character: each of the first 15 characters' value by its position
// (odd positions, counted from 1, use this table; even ones count digits and letters from 0).
const cfOdd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const cfValue = (c: string) => (c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 65);

/**
 * Italian codici fiscali: surname and name letters, birth year, month letter, day, place code and
 * the check character (digits may be swapped for letters, omocodia).
 */
function itCodiciFiscali(text: string): Span<'national_id'>[] {
  const d = '[0-9LMNPQRSTUV]';
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])[A-Z]{6}${d}{2}[ABCDEHLMPRST]${d}{2}[A-Z]${d}{3}[A-Z](?![\\p{L}\\p{N}])`,
    'gu',
  );
  return matches(text, pattern)
    .filter(([code]) => {
      let sum = 0;
      for (let i = 0; i < 15; i++) sum += i % 2 === 0 ? cfOdd[cfValue(code[i])] : cfValue(code[i]);
      return String.fromCharCode(65 + (sum % 26)) === code[15];
    })
    .map((m) => ({ kind: 'national_id', start: m.index, end: m.index + m[0].length }));
}

/** Dutch BSNs: nine digits (or 1234.56.789) passing the 11-proof. */
function nlBsns(text: string): Span<'national_id'>[] {
  return matches(text, /(?<![\p{L}\p{N}.-])(?:\d{9}|\d{4}\.\d{2}\.\d{3})(?![\p{L}\p{N}]|[.-]\d)/gu)
    .filter(([value]) => {
      const digits = value.replaceAll('.', '');
      if (/^0+$/.test(digits)) return false;
      let sum = 0;
      for (let i = 0; i < 8; i++) sum += (9 - i) * Number(digits[i]);
      return (sum - Number(digits[8])) % 11 === 0;
    })
    .map((m) => ({ kind: 'national_id', start: m.index, end: m.index + m[0].length }));
}

const nationalIdsOf: Record<NationalIdCountry, (text: string) => Span<'national_id'>[]> = {
  us: usSsns,
  gb: gbNinos,
  es: esIds,
  fr: frNirs,
  it: itCodiciFiscali,
  nl: nlBsns,
};

/**
 * The PII in `text`: the `entities` asked for (all when absent), national identifiers and
 * national-format phone numbers of `countries` (all the known ones when absent). Offsets are in
 * `text`'s UTF-16 code units; no two overlap (the longer wins); sorted by start. Never the values.
 */
export async function detectPii(
  text: string,
  options: { entities?: readonly PiiEntity[]; countries?: readonly NationalIdCountry[] } = {},
): Promise<PiiSpan[]> {
  const entities = new Set(options.entities?.length ? options.entities : piiEntityValues);
  const countries = options.countries?.length ? options.countries : nationalIdCountryValues;
  const candidates: PiiSpan[] = [];
  if (entities.has('email')) candidates.push(...emails(text));
  if (entities.has('phone')) candidates.push(...phones(text, countries, await loadPhones()));
  if (entities.has('card')) candidates.push(...cards(text));
  if (entities.has('iban')) candidates.push(...ibans(text, await loadIbans()));
  if (entities.has('ip')) candidates.push(...ips(text));
  if (entities.has('national_id')) for (const c of countries) candidates.push(...nationalIdsOf[c](text));
  return withoutOverlaps(candidates, specificity);
}
