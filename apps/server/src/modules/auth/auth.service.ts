import type {
  AuthResponse,
  LoginInput,
  Organization,
  PlanId,
  Session,
  UserOrganization,
} from '@crewline/contracts';
import { messages, teamMessages, type signupSchema } from '@crewline/contracts';
import type { z } from 'zod';
import type { SqlExecutor } from '@crewline/db';
import type { Config } from '../../platform/env';
import type { EventBus } from '../../platform/events';
import { NotFoundError, UnauthorizedError } from '../../platform/errors';
import { isUuid } from '../../platform/ids';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../platform/auth/passwords';
import type { TokenService } from '../../platform/auth/tokens';
import type { AuthContext } from '../../platform/auth/auth-context';
import type { AuthRepository, Membership, UserRow } from './auth.repository';
import { identityConflict, identityConflictOf } from './identity-conflict';
import { toOrganizationDto, toSessionDto } from './auth.dto';
import { tooManyRequests, type RateLimitRepository } from '../../platform/rate-limit.repository';
import type { StoredSubscription } from '../billing/billing.service';

/** A signed-in user's membership of their session's organization (organizations reads it). */
export type { Membership } from './auth.repository';

type SignupData = z.output<typeof signupSchema>;

const LOGIN_FAILURES = 'login_failure';
const SIGNUPS = 'signup';

export function createAuthService(deps: {
  config: Config;
  repository: AuthRepository;
  rateLimits: RateLimitRepository;
  tokens: TokenService;
  /** Where ended sessions are announced, so every process closes their websockets. */
  events: EventBus;
  /** The new organization's trial (modules/billing): on the plan the visitor came from, no card. */
  billing: { signupSubscription(plan?: PlanId): StoredSubscription & { trialUsedAt: Date } };
  /** Mails the new account its verification link (AccountLinksService.sendVerification). */
  verification?: { sendVerification(user: UserRow): void };
}) {
  const { config, repository, rateLimits, tokens, events } = deps;
  const loginWindowSeconds = config.rateLimits.loginWindowMinutes * 60;

  /** A new session; `signIn` when it is a sign-in, which the organization's audit log records. */
  async function issue(
    m: Membership,
    signIn?: { ip: string | null; method: 'password' },
  ): Promise<AuthResponse> {
    const expiresAt = new Date(Date.now() + config.sessionTtlDays * 86_400_000);
    const sessionId = await repository.createSession(
      { userId: m.user.id, organizationId: m.organization.id, expiresAt },
      signIn,
    );
    const token = await tokens.sign(
      { sessionId, userId: m.user.id, organizationId: m.organization.id },
      expiresAt,
    );
    return { token, ...toSessionDto(m) };
  }

  /** Throws 429 when the window is full, saying how long until the oldest counted event leaves it. */
  async function enforce(bucket: string, key: string, max: number, windowSeconds: number, what: string) {
    const { count, oldest } = await rateLimits.window(bucket, key, windowSeconds);
    if (count >= max) throw tooManyRequests(oldest, windowSeconds, what);
  }

  /**
   * Like authenticate, but a session whose user left or was removed from its organization still
   * resolves, with `member: false` and an empty role: the HTTP guard lets it reach only the routes
   * declared `membershipOptional` (list organizations, switch, logout, accept an invitation) and
   * answers 404 elsewhere.
   */
  async function authenticateSession(
    token: string,
  ): Promise<{ context: AuthContext; session: Membership; member: boolean } | null> {
    const claims = await tokens.verify(token);
    if (!claims) return null;
    const session = await repository.findActiveSession(
      claims.sessionId,
      claims.userId,
      claims.organizationId,
    );
    if (!session) return null;
    const role = session.role ?? '';
    return { context: { ...claims, role }, session: { ...session, role }, member: session.role !== null };
  }

  return {
    /**
     * Counts a signup attempt from `ip`, successful or not, and throws 429 past the hourly limit. The
     * route calls it before validating the body: every attempt counts, so the duplicate-email and
     * duplicate-username answers cannot be used to test identities at full speed.
     */
    async countSignupAttempt(ip: string): Promise<void> {
      const { allowed, oldest } = await rateLimits.take(
        SIGNUPS,
        ip,
        config.rateLimits.signupMaxPerHour,
        3600,
      );
      if (!allowed) throw tooManyRequests(oldest, 3600, 'Too many sign-up attempts from your network.');
    },

    /** Creates the account; the route has counted the attempt (countSignupAttempt). */
    async signup(input: SignupData): Promise<AuthResponse> {
      const taken = identityConflict(await repository.findTakenIdentity(input.email, input.username));
      if (taken) throw taken;
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
          subscription: deps.billing.signupSubscription(input.plan),
          slugBase: slugify(input.username),
        });
      } catch (error) {
        // Two sign-ups racing for the same identity: the database's unique index decides.
        throw identityConflictOf(error) ?? error;
      }
      deps.verification?.sendVerification(membership.user);
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
      return issue(membership, { ip: ip || null, method: 'password' });
    },

    /**
     * Resolves a bearer token to its live session, or null when it is forged, expired or revoked, or
     * when its user no longer belongs to its organization (websockets use this).
     */
    async authenticate(token: string): Promise<{ context: AuthContext; session: Membership } | null> {
      const result = await authenticateSession(token);
      return result?.member ? { context: result.context, session: result.session } : null;
    },

    authenticateSession,

    /** GET /api/auth/organizations: every organization of the user, with their role in each. */
    organizationsOf(userId: string): Promise<UserOrganization[]> {
      return repository.listMemberships(userId);
    },

    /**
     * A new session of the user scoped to another organization they belong to, answered like login.
     * Not a member (or not an organization at all) → 404, as for any other tenant's resource.
     */
    async switchOrganization(userId: string, organizationId: string): Promise<AuthResponse> {
      const membership = isUuid(organizationId)
        ? await repository.findMembership(userId, organizationId)
        : undefined;
      if (!membership) throw new NotFoundError(teamMessages.organizationNotFound);
      return issue(membership);
    },

    toSession(m: Membership): Session {
      return toSessionDto(m);
    },

    /** The organization as a member with `role` sees it (an accepted invitation's); undefined if gone. */
    async organization(organizationId: string, role: string): Promise<Organization | undefined> {
      const row = await repository.findOrganization(organizationId);
      return row && toOrganizationDto(row, role);
    },

    /** Ends the session; every process closes its websockets. */
    logout(sessionId: string): Promise<void> {
      return repository.revokeSession(sessionId, (executor) =>
        events.publishSessionChange({ type: 'session_ended', sessionId }, executor),
      );
    },

    /**
     * Ends every session of the user but the current one (a password change); every process closes
     * their websockets. Resolves to how many sessions were still live.
     */
    endOtherSessions(userId: string, keepSessionId: string): Promise<number> {
      return repository.revokeOtherSessions(userId, keepSessionId, (executor) =>
        events.publishSessionChange(
          { type: 'user_sessions_ended', userId, exceptSessionId: keepSessionId },
          executor,
        ),
      );
    },

    /** Ends every session of the user (a password reset); every process closes their websockets. */
    endAllSessions(userId: string): Promise<void> {
      return repository.revokeAllSessions(userId, (executor) =>
        events.publishSessionChange({ type: 'user_sessions_ended', userId }, executor),
      );
    },

    /**
     * Call once the user's membership of the organization is removed: every process stops that
     * organization's feed on the user's websockets and closes those signed in to it (their sessions
     * no longer authenticate). Pass the removing transaction's executor to announce on its commit;
     * without one, call it after the commit.
     */
    membershipEnded(userId: string, organizationId: string, executor?: SqlExecutor): Promise<void> {
      return events.publishSessionChange({ type: 'membership_ended', userId, organizationId }, executor);
    },

    pruneRateLimits(): Promise<void> {
      return rateLimits.prune(86_400);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

function slugify(value: string): string {
  const slug = value
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug || 'org';
}
