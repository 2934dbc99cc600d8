import { jwtVerify, SignJWT } from 'jose';

export type TokenClaims = { sessionId: string; userId: string; organizationId: string };

const issuer = 'crewline';

/** HS256 JWT whose `jti` is the server-side session id, so revoking the session revokes the token. */
export function createTokenService(secret: string) {
  const key = new TextEncoder().encode(secret);
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
      try {
        const { payload } = await jwtVerify(token, key, { issuer, algorithms: ['HS256'] });
        if (!payload.jti || !payload.sub || typeof payload.org !== 'string') return null;
        return { sessionId: payload.jti, userId: payload.sub, organizationId: payload.org };
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
