import {
  messages,
  type ChangePasswordInput,
  type Session,
  type updateProfileSchema,
} from '@crewline/contracts';
import type { z } from 'zod';
import type { Config } from '../../platform/env';
import { BadRequestError, UnauthorizedError } from '../../platform/errors';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords';
import type { Membership, UserRow } from './auth.repository';
import { identityConflict, identityConflictOf } from './identity-conflict';
import { toSessionDto } from './auth.dto';
import type { ProfileRepository } from './profile.repository';
import { tooManyRequests, type RateLimitRepository } from '../../platform/rate-limit.repository';

type ProfileUpdate = z.output<typeof updateProfileSchema>;

/** Wrong current passwords, counted per user like failed sign-ins (AUTH_LOGIN_MAX_FAILURES per window). */
const PASSWORD_FAILURES = 'password_change_failure';

export function createProfileService(deps: {
  config: Config;
  repository: ProfileRepository;
  rateLimits: RateLimitRepository;
  /** AuthService.endOtherSessions: signs the user out everywhere but here. */
  endOtherSessions: (userId: string, keepSessionId: string) => Promise<number>;
  /** Mails a verification link to a changed address (AccountLinksService.sendVerification). */
  verification?: { sendVerification(user: UserRow): void };
}) {
  const { config, repository, rateLimits, endOtherSessions } = deps;
  const windowSeconds = config.rateLimits.loginWindowMinutes * 60;

  return {
    /** Edits the signed-in user's names, username and email; answers the session as GET /api/auth/me. */
    async updateProfile(account: Membership, input: ProfileUpdate): Promise<Session> {
      const patch: Partial<
        Pick<UserRow, 'firstName' | 'lastName' | 'username' | 'email' | 'emailVerifiedAt'>
      > = {};
      if (input.firstName !== undefined) patch.firstName = input.firstName || null;
      if (input.lastName !== undefined) patch.lastName = input.lastName || null;
      if (input.username !== undefined) patch.username = input.username;
      // A new address is unverified until its owner opens the link mailed to it.
      const emailChanged = input.email !== undefined && input.email !== account.user.email;
      if (emailChanged) {
        patch.email = input.email;
        patch.emailVerifiedAt = null;
      }
      if (Object.keys(patch).length === 0) return toSessionDto(account);

      const taken = identityConflict(
        await repository.findTakenByOthers(account.user.id, { email: patch.email, username: patch.username }),
      );
      if (taken) throw taken;
      let user: UserRow | undefined;
      try {
        user = await repository.updateUser(account.user.id, patch);
      } catch (error) {
        // Another account took the identity between the check and the write: the unique index decides.
        throw identityConflictOf(error) ?? error;
      }
      if (!user) throw new UnauthorizedError(messages.sessionExpired);
      if (emailChanged) deps.verification?.sendVerification(user);
      return toSessionDto({ ...account, user });
    },

    /**
     * Checks the current password, stores the new one and ends every other session of the user; the
     * session making the change stays signed in. Wrong current passwords count towards a per-user
     * limit (429 once full), so a borrowed session cannot be used to guess the password.
     */
    async changePassword(
      auth: { userId: string; sessionId: string },
      input: ChangePasswordInput,
    ): Promise<void> {
      const { count, oldest } = await rateLimits.window(PASSWORD_FAILURES, auth.userId, windowSeconds);
      if (count >= config.rateLimits.loginMaxFailures)
        throw tooManyRequests(oldest, windowSeconds, 'Too many wrong passwords.');

      const stored = await repository.findPasswordHash(auth.userId);
      if (!stored) throw new UnauthorizedError(messages.sessionExpired);
      if (!(await verifyPassword(stored, input.currentPassword))) {
        await rateLimits.record(PASSWORD_FAILURES, auth.userId);
        throw new BadRequestError(messages.currentPasswordIncorrect, [
          { path: 'currentPassword', message: messages.currentPasswordIncorrect },
        ]);
      }
      await rateLimits.clear(PASSWORD_FAILURES, auth.userId);
      const hash = await hashPassword(input.newPassword);
      // Other sessions end first: should the password write then fail, the worst left is a user signed
      // out elsewhere with the old password, never a new password with someone else still signed in.
      await endOtherSessions(auth.userId, auth.sessionId);
      await repository.setPasswordHash(auth.userId, hash);
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
