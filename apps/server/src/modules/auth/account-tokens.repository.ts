import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accountTokens, users, type Db } from '@crewline/db';

export type AccountTokenPurpose = (typeof accountTokens.$inferInsert)['purpose'];

/** The emailed single-use links (verification, password reset): only their sha256 is stored. */
export function createAccountTokensRepository(db: Db) {
  return {
    async create(input: {
      userId: string;
      purpose: AccountTokenPurpose;
      email: string;
      tokenHash: string;
      expiresAt: Date;
    }): Promise<void> {
      await db.insert(accountTokens).values(input);
    },

    /**
     * Marks the token used and answers its user and address, in one statement so that two requests
     * with the same link cannot both use it; undefined for an unknown, used or expired token.
     */
    async consume(
      purpose: AccountTokenPurpose,
      tokenHash: string,
    ): Promise<{ userId: string; email: string } | undefined> {
      const [row] = await db
        .update(accountTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(accountTokens.tokenHash, tokenHash),
            eq(accountTokens.purpose, purpose),
            isNull(accountTokens.usedAt),
            gt(accountTokens.expiresAt, sql`now()`),
          ),
        )
        .returning({ userId: accountTokens.userId, email: accountTokens.email });
      return row;
    },

    /**
     * Marks the user's address verified, only while it is still `email` (the address the link was
     * sent to); false when the user has changed it since.
     */
    async markVerified(userId: string, email: string): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
        .where(and(eq(users.id, userId), eq(users.email, email)))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /**
     * Stores the new password hash and retires the user's other reset links. The reset link reached
     * `email`, which proves it too while it is still the user's address.
     */
    async resetPassword(userId: string, email: string, password: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.update(users).set({ password }).where(eq(users.id, userId));
        await tx
          .update(users)
          .set({ emailVerifiedAt: sql`now()` })
          .where(and(eq(users.id, userId), eq(users.email, email), isNull(users.emailVerifiedAt)));
        await tx
          .update(accountTokens)
          .set({ usedAt: sql`now()` })
          .where(
            and(
              eq(accountTokens.userId, userId),
              eq(accountTokens.purpose, 'reset_password'),
              isNull(accountTokens.usedAt),
            ),
          );
      });
    },
  };
}
export type AccountTokensRepository = ReturnType<typeof createAccountTokensRepository>;
