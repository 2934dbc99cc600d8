import type { Logger } from 'pino';
import { accountMessages } from '@crewline/contracts';
import type { Config } from '../../platform/env';
import { AppError } from '../../platform/errors';
import { hashLinkToken, newLinkToken } from '../../platform/auth/link-tokens';
import { hashPassword } from '../../platform/auth/passwords';
import { describeError } from '../../platform/logger';
import type { Mailer, MailMessage } from '../../platform/mail';
import type { AuthRepository, UserRow } from './auth.repository';
import type { AccountTokenPurpose, AccountTokensRepository } from './account-tokens.repository';
import { RESET_TTL_MS, resetMail, VERIFICATION_TTL_MS, verificationMail } from './account-mails';
import { tooManyRequests, type RateLimitRepository } from '../../platform/rate-limit.repository';

/** 410: an emailed link that expired, was already used, or never existed (the same answer for all). */
class LinkGoneError extends AppError {
  constructor() {
    super(410, accountMessages.linkGone);
  }
}

/** Reset requests per address, and verification resends per user, like failed sign-ins per window. */
const RESET_REQUESTS = 'password_reset_request';
const VERIFICATION_RESENDS = 'verification_resend';
/** Verification links an admin asks for (no mail transport), per admin. */
const VERIFICATION_LINKS = 'verification_link';

/**
 * Email verification and password reset (docs/security.md, Accounts and mail): single-use links,
 * mailed through the server's mail transport, whose tokens are stored only as hashes.
 */
export function createAccountLinksService(deps: {
  config: Config;
  tokens: AccountTokensRepository;
  users: Pick<AuthRepository, 'findUserByEmail'>;
  rateLimits: RateLimitRepository;
  mailer: Mailer;
  /** AuthService.endAllSessions: a reset signs the user out everywhere. */
  endAllSessions: (userId: string) => Promise<void>;
  logger?: Logger;
}) {
  const { config, tokens, rateLimits, mailer, logger } = deps;
  const windowSeconds = config.rateLimits.loginWindowMinutes * 60;

  async function take(bucket: string, key: string, what: string) {
    const { allowed, oldest } = await rateLimits.take(
      bucket,
      key,
      config.rateLimits.loginMaxFailures,
      windowSeconds,
    );
    if (!allowed) throw tooManyRequests(oldest, windowSeconds, what);
  }

  /** Stores a new token for the user and answers the absolute link to `page` that carries it. */
  async function issue(
    user: Pick<UserRow, 'id' | 'email'>,
    purpose: AccountTokenPurpose,
    page: string,
    ttlMs: number,
  ) {
    const token = newLinkToken();
    await tokens.create({
      userId: user.id,
      purpose,
      email: user.email,
      tokenHash: hashLinkToken(token),
      expiresAt: new Date(Date.now() + ttlMs),
    });
    return `${config.publicUrl}/${page}?token=${token}`;
  }

  /**
   * Sends, or without SMTP_URL says at info level that nothing was sent (never the link: it would let
   * whoever reads the log take the account).
   */
  async function deliver(kind: string, userId: string, message: MailMessage) {
    if (!mailer.configured) {
      logger?.info(
        { userId, mail: kind },
        `No mail transport configured (SMTP_URL): the ${kind} message was not sent`,
      );
      return;
    }
    await mailer.send(message);
  }

  /**
   * Runs after the answer is decided: the request neither waits for the mail server nor takes longer
   * when an account exists, and a failure to send is logged rather than answered.
   */
  function inBackground(kind: string, userId: string | undefined, work: () => Promise<void>) {
    void work().catch((error: unknown) => {
      logger?.warn(
        { userId, mail: kind, err: describeError(error as Error) },
        `The ${kind} message could not be sent`,
      );
    });
  }

  async function sendVerificationNow(user: UserRow) {
    const link = await issue(user, 'verify_email', 'verify-email', VERIFICATION_TTL_MS);
    await deliver('verification', user.id, verificationMail(user.email, link));
  }

  return {
    /** Mails a verification link to the user's current address (after sign-up and an email change). */
    sendVerification(user: UserRow): void {
      inBackground('verification', user.id, () => sendVerificationNow(user));
    },

    /**
     * POST /api/auth/resend-verification: another link, unless the address is already verified. Answers
     * what to tell the user: without a mail transport nothing can be sent, and they learn where to turn.
     */
    async resendVerification(user: UserRow): Promise<string> {
      await take(VERIFICATION_RESENDS, user.id, 'Too many verification emails.');
      if (!mailer.configured) return accountMessages.verificationNotMailed;
      if (!user.emailVerifiedAt) inBackground('verification', user.id, () => sendVerificationNow(user));
      return accountMessages.verificationSent;
    },

    /**
     * Counts one verification link asked for by `requesterId` (an admin, for an invitee: no mail
     * transport), within the resend limit; 429 beyond it. Taken before any lookup, so that the
     * answers cannot be used to list accounts quickly.
     */
    async limitVerificationLinks(requesterId: string): Promise<void> {
      await take(VERIFICATION_LINKS, requesterId, 'Too many verification links.');
    },

    /**
     * A fresh verification link for the user's current address, answered rather than mailed (the
     * admin passes it on): the same token, validity and single use as the mailed one. The caller
     * never logs it.
     */
    async verificationLinkFor(user: Pick<UserRow, 'id' | 'email'>): Promise<string> {
      return issue(user, 'verify_email', 'verify-email', VERIFICATION_TTL_MS);
    },

    /**
     * POST /api/auth/forgot-password: the same answer whether or not an account uses the address; the
     * lookup and the mail happen after it.
     */
    async forgotPassword(email: string): Promise<void> {
      await take(RESET_REQUESTS, email, 'Too many password reset requests.');
      inBackground('password reset', undefined, async () => {
        const user = await deps.users.findUserByEmail(email);
        if (!user) return;
        const link = await issue(user, 'reset_password', 'reset-password', RESET_TTL_MS);
        await deliver('password reset', user.id, resetMail(user.email, link));
      });
    },

    /** POST /api/auth/reset-password: sets the password and ends every session of the user. */
    async resetPassword(token: string, password: string): Promise<void> {
      const hash = await hashPassword(password);
      const used = await tokens.consume('reset_password', hashLinkToken(token));
      if (!used) throw new LinkGoneError();
      // Sessions end first, as on a password change: should the write then fail, nobody is left
      // signed in with a password the owner meant to replace.
      await deps.endAllSessions(used.userId);
      await tokens.resetPassword(used.userId, used.email, hash);
    },

    /** POST /api/auth/verify-email: 410 too when the account's address is no longer the one verified. */
    async verifyEmail(token: string): Promise<void> {
      const used = await tokens.consume('verify_email', hashLinkToken(token));
      if (!used || !(await tokens.markVerified(used.userId, used.email))) throw new LinkGoneError();
    },
  };
}
export type AccountLinksService = ReturnType<typeof createAccountLinksService>;
