import { jwtVerify, SignJWT } from 'jose';

export type TokenClaims = { sessionId: string; userId: string; organizationId: string };

const issuer = 'crewline';

/**
 * Tokens whose signature this process has checked, with their claims and expiry. A client sends the
 * same token with each request, and checking an HMAC through WebCrypto is an asynchronous job each
 * time (a twentieth of a run's CPU under load); expiry is still checked on each use, and revocation
 * is the session's (checked on each request by the caller), so the cache changes no answer.
 */
const MAX_VERIFIED = 10_000;

/** HS256 JWT whose `jti` is the server-side session id, so revoking the session revokes the token. */
export function createTokenService(secret: string) {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();
  return {
    async sign(claims: TokenClaims, expiresAt: Date): Promise<string> {
      return new SignJWT({ org: claims.organizationId })
        .setProtectedHeader({ alg: 'HS256' })
        .setJti(claims.sessionId)
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
    },
    /** The claims of a valid token, or null for anything forged, expired or malformed. */
    async verify(token: string): Promise<TokenClaims | null> {
      const known = verified.get(token);
      if (known) {
        // jwtVerify's rule: expired once the clock reaches `exp` (in whole seconds).
        if (Math.floor(Date.now() / 1000) < known.expiresAt) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, { issuer, algorithms: ['HS256'] });
        if (!payload.jti || !payload.sub || typeof payload.org !== 'string') return null;
        const claims = { sessionId: payload.jti, userId: payload.sub, organizationId: payload.org };
        if (typeof payload.exp === 'number') {
          // The oldest entry makes room: a Map iterates in insertion order.
          if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
          verified.set(token, { claims, expiresAt: payload.exp });
        }
        return claims;
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
