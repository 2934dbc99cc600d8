import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens';

const claims = { sessionId: 's-1', userId: 'u-1', organizationId: 'o-1' };

afterEach(() => {
  vi.useRealTimers();
});

describe('session tokens', () => {
  it('verify to their claims, again and again, until they expire', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T10:00:00Z') });
    const tokens = createTokenService('a'.repeat(32));
    const token = await tokens.sign(claims, new Date('2026-11-26T11:00:00Z'));
    expect(await tokens.verify(token)).toEqual(claims);
    vi.setSystemTime(new Date('2026-11-26T10:59:59Z'));
    expect(await tokens.verify(token)).toEqual(claims);
    vi.setSystemTime(new Date('2026-11-26T11:00:00Z'));
    expect(await tokens.verify(token)).toBeNull();
    vi.setSystemTime(new Date('2026-11-26T10:30:00Z'));
    // Once found expired it is forgotten, and checked afresh: still valid at this time.
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuse a token signed with another secret or altered, even after a good one was verified', async () => {
    const tokens = createTokenService('a'.repeat(32));
    const expires = new Date(Date.now() + 60_000);
    const good = await tokens.sign(claims, expires);
    expect(await tokens.verify(good)).toEqual(claims);

    const forged = await createTokenService('b'.repeat(32)).sign(claims, expires);
    expect(await tokens.verify(forged)).toBeNull();
    const [header, , signature] = good.split('.');
    const otherPayload = Buffer.from(
      JSON.stringify({ org: 'o-2', jti: 's-1', sub: 'u-1', iss: 'crewline' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${otherPayload}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${good}x`)).toBeNull();
    expect(await tokens.verify('not a token')).toBeNull();
  });
});
