import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from './mask';
import { createSecretMasker } from './secret-masker';

const KEY = 'sk-live-CANARY-0123456789abcdef';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('secret masker', () => {
  it('masks a credential in every string of a JSON value, object keys included', () => {
    const masker = createSecretMasker([KEY]);
    const echoed = {
      status: 200,
      body: {
        headers: { authorization: `Bearer ${KEY}`, accept: 'application/json' },
        seen: [`key=${KEY}`, { [KEY]: true, nested: [[`x${KEY}y`]] }],
        ok: true,
        count: 3,
        none: null,
      },
    };
    const masked = masker.json(echoed);
    expect(JSON.stringify(masked)).not.toContain(KEY);
    expect(masked).toEqual({
      status: 200,
      body: {
        headers: { authorization: `Bearer ${SECRET_MASK}`, accept: 'application/json' },
        seen: [`key=${SECRET_MASK}`, { [SECRET_MASK]: true, nested: [[`x${SECRET_MASK}y`]] }],
        ok: true,
        count: 3,
        none: null,
      },
    });
  });

  it('keeps a "__proto__" key as data', () => {
    const masked = createSecretMasker([KEY]).json(JSON.parse(`{"__proto__": {"leak": "${KEY}"}}`));
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value).toEqual({ leak: SECRET_MASK });
  });

  it('masks the token inside a credential stored with its scheme', () => {
    const masker = createSecretMasker([`Bearer ${KEY}`]);
    expect(masker.text(`{"x-api-key":"Bearer ${KEY}"}`)).toBe(`{"x-api-key":"${SECRET_MASK}"}`);
    expect(masker.text(`token=${KEY}`)).toBe(`token=${SECRET_MASK}`);
  });

  it('masks URL-encoded, form-encoded and JSON-escaped forms', () => {
    const key = 'k3y/with+special=chars&"quotes" \\ here';
    const masker = createSecretMasker([key]);
    const echoes = [
      `https://api.test/echo?key=${encodeURIComponent(key)}`,
      `key=${encodeURIComponent(key).replace(/%20/g, '+')}`,
      `https://api.test/${encodeURI(key)}`,
      JSON.stringify({ header: key }),
    ];
    for (const echo of echoes) {
      const masked = masker.text(echo);
      expect(masked, echo).toContain(SECRET_MASK);
      expect(decodeURIComponent(masked.replace(/\+/g, ' ')), echo).not.toContain(key);
    }
    expect(JSON.parse(masker.text(JSON.stringify({ header: key })))).toEqual({ header: SECRET_MASK });
  });

  it('masks base64, also inside a Basic header at every byte alignment', () => {
    const masker = createSecretMasker([KEY]);
    expect(masker.text(`x-echo: ${b64(KEY)}`)).toBe(`x-echo: ${SECRET_MASK}`);
    expect(masker.text(b64(KEY).replace(/=+$/, ''))).toBe(SECRET_MASK);
    for (const user of ['a', 'ab', 'abc', 'alice']) {
      const header = `Basic ${b64(`${user}:${KEY}`)}`;
      const masked = masker.text(header);
      expect(masked, user).toContain(SECRET_MASK);
      // Whatever base64 is left, decoded at any alignment, holds no 4 characters of the key.
      for (const piece of masked.replace(/^Basic /, '').split(SECRET_MASK)) {
        for (let skip = 0; skip < 4; skip++) {
          const decoded = Buffer.from(piece.slice(skip), 'base64').toString('latin1');
          for (let i = 0; i + 4 <= KEY.length; i++) expect(decoded, user).not.toContain(KEY.slice(i, i + 4));
        }
      }
    }
  });

  it("masks a connection string's password in every form, and leaves its public parts", () => {
    const connectionString = 'postgres://app:s3cr%23t-pass@db.example.test:5432/shop';
    const masker = createSecretMasker([connectionString]);
    expect(masker.text(`could not connect to ${connectionString}`)).toBe(
      `could not connect to ${SECRET_MASK}`,
    );
    expect(masker.text('password "s3cr#t-pass" was refused for app@db.example.test')).toBe(
      `password "${SECRET_MASK}" was refused for app@db.example.test`,
    );
    expect(masker.text('raw: s3cr%23t-pass')).toBe(`raw: ${SECRET_MASK}`);
    // The user name, host and scheme stay readable, even at the end of a string.
    expect(masker.json({ user: 'app', host: 'db.example.test', who: 'postgres' })).toEqual({
      user: 'app',
      host: 'db.example.test',
      who: 'postgres',
    });
  });

  it('masks the start of a credential where a clipped string ends', () => {
    const masker = createSecretMasker([KEY]);
    const clipped = `"authorization":"Bearer ${KEY.slice(0, 20)}`;
    expect(masker.text(clipped)).toBe(`"authorization":"Bearer ${SECRET_MASK}`);
    expect(masker.text(`${KEY.slice(0, 12)}…`)).toBe(`${SECRET_MASK}…`);
    // Too little of it to tell from ordinary text: left alone.
    expect(masker.text(`prefix ${KEY.slice(0, 7)}`)).toBe(`prefix ${KEY.slice(0, 7)}`);
  });

  it('ignores values too short to be credentials and leaves text without credentials alone', () => {
    const masker = createSecretMasker(['', 'x', 'abc', undefined, null, 42, { apiKey: KEY }]);
    const value = { text: 'abc x 42 abcabc', n: 42 };
    expect(masker.text('abc x abcabc')).toBe('abc x abcabc');
    expect(masker.json(value)).toBe(value);

    const withKey = createSecretMasker(['abcd', KEY]);
    expect(withKey.text('the abcd and ab cd')).toBe(`the ${SECRET_MASK} and ab cd`);
    expect(withKey.json({ a: 'ordinary text', b: [1, true], c: 'sk-live-other' })).toEqual({
      a: 'ordinary text',
      b: [1, true],
      c: 'sk-live-other',
    });
  });

  it('refuses JSON nested too deeply to walk, with a message instead of a stack overflow', () => {
    let deep: unknown = KEY;
    for (let i = 0; i < 10_000; i++) deep = { a: [deep] };
    expect(() => createSecretMasker([KEY]).json(deep)).toThrow(/nested more than 500 levels/);
  });

  it('masks a numeric credential printed as a number, and credentials added later', () => {
    const masker = createSecretMasker();
    expect(masker.json({ pin: 123456 })).toEqual({ pin: 123456 });
    masker.add('123456', `provider-${KEY}`);
    expect(masker.json({ pin: 123456, other: 7 })).toEqual({ pin: SECRET_MASK, other: 7 });
    expect(masker.text(`echo provider-${KEY}`)).toBe(`echo ${SECRET_MASK}`);
  });
});
