import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../errors';
import { bearerToken, isApiKey, requireOwnOrganization, type AuthContext } from './auth-context';

const request = (headers: Record<string, string>, auth?: Partial<AuthContext>) =>
  ({ headers, auth }) as unknown as FastifyRequest;

describe('auth context helpers', () => {
  it('reads the token of a Bearer header, and nothing else', () => {
    expect(bearerToken(request({ authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(bearerToken(request({ authorization: 'Bearer   ' }))).toBeUndefined();
    expect(bearerToken(request({ authorization: 'Basic abc' }))).toBeUndefined();
    expect(bearerToken(request({}))).toBeUndefined();
  });

  it('tells an API key from a session token by its crw_ prefix', () => {
    expect(isApiKey('crw_abc')).toBe(true);
    expect(isApiKey('eyJhbGciOi.x.y')).toBe(false);
  });

  it("answers another organization's id as not found", () => {
    const own = '11111111-1111-4111-8111-111111111111';
    expect(requireOwnOrganization(request({}, { organizationId: own }), own)).toBe(own);
    expect(() =>
      requireOwnOrganization(request({}, { organizationId: own }), '22222222-2222-4222-8222-222222222222'),
    ).toThrow(new NotFoundError('Organization not found'));
  });
});
