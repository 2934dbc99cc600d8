import { describe, expect, it } from 'vitest';
import { isTrustedSender } from './sender-trust';

describe('isTrustedSender', () => {
  const domains = ['example.com', 'partner.org'];

  it('trusts a listed domain and its subdomains, whatever the case', () => {
    expect(isTrustedSender('ana@example.com', domains)).toBe(true);
    expect(isTrustedSender('Ana@EU.Example.COM', domains)).toBe(true);
    expect(isTrustedSender('bo@partner.org', domains)).toBe(true);
  });

  it('does not trust another domain that merely ends the same way, or a parent domain', () => {
    expect(isTrustedSender('eve@badexample.com', domains)).toBe(false);
    expect(isTrustedSender('eve@example.com.evil.net', domains)).toBe(false);
    expect(isTrustedSender('eve@com', domains)).toBe(false);
  });

  it('trusts no one without a domain, or when no domain is listed', () => {
    expect(isTrustedSender('', domains)).toBe(false);
    expect(isTrustedSender('ana', domains)).toBe(false);
    expect(isTrustedSender('ana@', domains)).toBe(false);
    expect(isTrustedSender('ana@example.com', [])).toBe(false);
  });
});
