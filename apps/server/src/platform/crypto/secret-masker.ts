import { SECRET_MASK } from './mask';

/**
 * Replaces credentials with SECRET_MASK in what a tool hands back (docs/security.md): an endpoint that
 * echoes request headers, or an error that quotes them, must not carry a tool's key into the model's
 * context or a run's records. Besides the value itself it masks the forms a server could echo: the
 * token inside `Bearer …`/`Basic …`, URL-, form- and JSON-escaped forms, base64 (also inside a
 * longer base64 string, as in `Basic base64(user:key)`) and the password of a connection string.
 */

/** Shorter values are ordinary text more often than credentials: masking them would shred output. */
const MIN_SECRET_LENGTH = 4;
/** Pieces of base64 shorter than this could be any base64 text. */
const MIN_ENCODED_LENGTH = 8;
/**
 * A clipped string (a truncated response body, a shortened error) can end in the start of a
 * credential; a tail this long or longer is masked too, so clipping never shows more than this.
 */
const MIN_TAIL_LENGTH = 8;
/** Deeper JSON is refused with a clear message rather than walked until the stack runs out. */
const MAX_DEPTH = 500;

export type SecretMasker = {
  /** Adds credentials; anything that is not a string of MIN_SECRET_LENGTH or more is ignored. */
  add(...secrets: unknown[]): void;
  text(value: string): string;
  /**
   * A copy of a JSON value with every string masked, object keys included (the value itself while
   * there is nothing to mask).
   */
  json(value: unknown): unknown;
};

export function createSecretMasker(secrets: unknown[] = []): SecretMasker {
  const forms = new Set<string>();
  const tails = new Set<string>();
  // Longest first, so a value is masked whole before a shorter form inside it is.
  let ordered: string[] = [];

  function add(...values: unknown[]) {
    for (const secret of values) {
      if (typeof secret !== 'string') continue;
      const { parts, cores } = partsOf(secret);
      for (const value of parts) for (const form of formsOf(value)) forms.add(form);
      for (const core of cores) if (core.length >= MIN_TAIL_LENGTH) tails.add(core);
    }
    ordered = [...forms].sort((a, b) => b.length - a.length);
  }

  function text(value: string): string {
    let out = value;
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(SECRET_MASK);
    return maskTail(out);
  }

  function maskTail(value: string): string {
    const end = value.endsWith('…') ? value.length - 1 : value.length;
    for (const secret of tails) {
      for (let n = Math.min(secret.length - 1, end); n >= MIN_TAIL_LENGTH; n--) {
        if (value.startsWith(secret.slice(0, n), end - n))
          return value.slice(0, end - n) + SECRET_MASK + value.slice(end);
      }
    }
    return value;
  }

  function json(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return text(value);
    if (typeof value === 'number' || typeof value === 'bigint') {
      // A numeric credential (a PIN) printed as a number.
      const printed = String(value);
      const masked = text(printed);
      return masked === printed ? value : masked;
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DEPTH) throw new Error(`The answer is nested more than ${MAX_DEPTH} levels deep.`);
    const { toJSON } = value as { toJSON?: unknown };
    // What the model and the records get is the JSON form (a Date's ISO string, a Buffer's bytes).
    if (typeof toJSON === 'function') {
      const serialized: unknown = toJSON.call(value);
      if (serialized !== value) return json(serialized, depth);
    }
    if (Array.isArray(value)) return value.map((item) => json(item, depth + 1));
    // fromEntries defines keys as own properties, so a "__proto__" key stays data.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [text(key), json(item, depth + 1)]));
  }

  add(...secrets);
  return {
    add,
    text,
    json: (value) => (forms.size === 0 ? value : json(value)),
  };
}

/**
 * The credential and the values inside it: the token after an auth scheme, a URL's password.
 * `cores` are the parts that are secret from their first character (`Bearer …` and
 * `postgres://app:…` begin with public text, which a clipped string may well end in).
 */
function partsOf(secret: string): { parts: string[]; cores: string[] } {
  const trimmed = secret.trim();
  const inner: string[] = [];
  // `user:password` decoded from a Basic credential: secret, though it begins with the user name.
  const decodedPairs: string[] = [];
  const scheme = /^(bearer|basic|token)\s+(\S+)$/i.exec(trimmed);
  if (scheme) {
    inner.push(scheme[2]);
    if (scheme[1].toLowerCase() === 'basic') {
      const decoded = Buffer.from(scheme[2], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) {
        decodedPairs.push(decoded);
        inner.push(decoded.slice(colon + 1));
      }
    }
  }
  let isUrl = false;
  if (trimmed.includes('://')) {
    try {
      const url = new URL(trimmed);
      isUrl = true;
      const password = url.password || url.searchParams.get('password') || '';
      if (password) inner.push(password, safeDecode(password));
    } catch {
      // not a URL
    }
  }
  const long = (values: string[]) => [...new Set(values)].filter((v) => v.length >= MIN_SECRET_LENGTH);
  return {
    parts: long([secret, trimmed, ...decodedPairs, ...inner]),
    cores: long(inner.length > 0 || isUrl ? inner : [trimmed]),
  };
}

function safeDecode(value: string) {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The ways `value` can appear in text a server sends back. */
function formsOf(value: string): string[] {
  const component = encodeURIComponent(value);
  const forms = [
    value,
    component,
    component.replace(/%20/g, '+'),
    encodeURI(value),
    JSON.stringify(value).slice(1, -1),
    ...base64Forms(value).filter((form) => form.length >= MIN_ENCODED_LENGTH),
  ];
  return [...new Set(forms)];
}

/**
 * base64 of the value, standard and URL-safe, and the characters that encode it wherever it sits in
 * a longer base64 string: at each of the 3 byte alignments, the characters that hold only the
 * value's bits (the ones at either end mix in the neighbouring bytes, so they are left out).
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const standard = [bytes.toString('base64')];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    standard.push(encoded.slice(start, end));
  }
  const urlSafe = standard.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  return [...standard, ...urlSafe];
}
