import type { AuthResponse, LoginInput, Session } from '@crewline/contracts';
import { messages, type signupSchema } from '@crewline/contracts';
import type { z } from 'zod';
import type { Config } from '../../platform/env';
import { ConflictError, TooManyRequestsError, UnauthorizedError } from '../../platform/errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../platform/auth/passwords';
import type { TokenService } from '../../platform/auth/tokens';
import { isUniqueViolation, type AuthRepository, type Membership } from './auth.repository';
import { toSessionDto } from './auth.dto';
import type { RateLimitRepository } from './rate-limit.repository';

export type AuthContext = { sessionId: string; userId: string; organizationId: string; role: string };

type SignupData = z.output<typeof signupSchema>;

const LOGIN_FAILURES = 'login_failure';
const SIGNUPS = 'signup';

export function createAuthService(deps: {
  config: Config;
  repository: AuthRepository;
  rateLimits: RateLimitRepository;
  tokens: TokenService;
}) {
  const { config, repository, rateLimits, tokens } = deps;
  const loginWindowSeconds = config.rateLimits.loginWindowMinutes * 60;

  async function issue(m: Membership): Promise<AuthResponse> {
    const expiresAt = new Date(Date.now() + config.sessionTtlDays * 86_400_000);
    const sessionId = await repository.createSession({
      userId: m.user.id,
      organizationId: m.organization.id,
      expiresAt,
    });
    const token = await tokens.sign(
      { sessionId, userId: m.user.id, organizationId: m.organization.id },
      expiresAt,
    );
    return { token, ...toSessionDto(m) };
  }

  /** Throws 429 when the window is full, saying how long until the oldest counted event leaves it. */
  async function enforce(bucket: string, key: string, max: number, windowSeconds: number, what: string) {
    const { count, oldest } = await rateLimits.window(bucket, key, windowSeconds);
    if (count < max) return;
    const retryAfter = Math.max(
      1,
      Math.ceil(((oldest?.getTime() ?? Date.now()) + windowSeconds * 1000 - Date.now()) / 1000),
    );
    const minutes = Math.ceil(retryAfter / 60);
    throw new TooManyRequestsError(
      `${what} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      retryAfter,
    );
  }

  return {
    async signup(input: SignupData, ip: string): Promise<AuthResponse> {
      await enforce(
        SIGNUPS,
        ip,
        config.rateLimits.signupMaxPerHour,
        3600,
        'Too many accounts were created from your network.',
      );
      const taken = await repository.findTakenIdentity(input.email, input.username);
      if (taken.email) throw new ConflictError(messages.emailTaken);
      if (taken.username) throw new ConflictError(messages.usernameTaken);
      const displayName = [input.firstName, input.lastName].filter(Boolean).join(' ') || input.username;
      let membership: Membership;
      try {
        membership = await repository.createAccount({
          user: {
            username: input.username,
            email: input.email,
            password: await hashPassword(input.password),
            firstName: input.firstName || null,
            lastName: input.lastName || null,
            role: 'user',
          },
          organizationName: `${displayName}'s Organization`,
          slugBase: slugify(input.username),
        });
      } catch (error) {
        // Two sign-ups racing for the same identity: the database's unique index decides.
        if (isUniqueViolation(error, 'email')) throw new ConflictError(messages.emailTaken);
        if (isUniqueViolation(error, 'username')) throw new ConflictError(messages.usernameTaken);
        throw error;
      }
      await rateLimits.record(SIGNUPS, ip);
      return issue(membership);
    },

    async login(input: LoginInput, ip: string): Promise<AuthResponse> {
      const key = `${input.email}|${ip}`;
      await enforce(
        LOGIN_FAILURES,
        key,
        config.rateLimits.loginMaxFailures,
        loginWindowSeconds,
        'Too many failed sign-in attempts.',
      );
      const user = await repository.findUserByEmail(input.email);
      const valid = await verifyPassword(user?.password ?? (await dummyPasswordHash()), input.password);
      const membership = user && valid ? await repository.findPrimaryMembership(user.id) : undefined;
      if (!membership) {
        await rateLimits.record(LOGIN_FAILURES, key);
        throw new UnauthorizedError(messages.invalidCredentials);
      }
      await rateLimits.clear(LOGIN_FAILURES, key);
      return issue(membership);
    },

    /** Resolves a bearer token to its live session, or null when it is forged, expired or revoked. */
    async authenticate(token: string): Promise<{ context: AuthContext; session: Membership } | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const session = await repository.findActiveSession(
        claims.sessionId,
        claims.userId,
        claims.organizationId,
      );
      if (!session) return null;
      return { context: { ...claims, role: session.role }, session };
    },

    toSession(m: Membership): Session {
      return toSessionDto(m);
    },

    logout(sessionId: string): Promise<void> {
      return repository.revokeSession(sessionId);
    },

    pruneRateLimits(): Promise<void> {
      return rateLimits.prune(86_400);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

export function slugify(value: string): string {
  const slug = value
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug || 'org';
}
