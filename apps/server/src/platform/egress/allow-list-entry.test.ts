import { describe, expect, it } from 'vitest';
import { allowListEntry } from './allow-list-entry';

describe('allowListEntry', () => {
  it("is the URL's host and port, the scheme's default port when it names none", () => {
    expect(allowListEntry('https://api.stripe.com')).toBe('api.stripe.com:443');
    expect(allowListEntry('http://127.0.0.1:4010/v1')).toBe('127.0.0.1:4010');
    expect(allowListEntry('http://graph.local/')).toBe('graph.local:80');
  });
});
