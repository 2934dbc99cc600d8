import { eq, lt } from 'drizzle-orm';
import { microsoftOauthStates, microsoftTokens, type Db } from '@crewline/db';

export type MicrosoftTokenRow = typeof microsoftTokens.$inferSelect;
export type MicrosoftStateRow = typeof microsoftOauthStates.$inferSelect;

/** Token values arrive and leave sealed: this layer never sees plaintext. */
export function createMicrosoftRepository(db: Db) {
  return {
    async saveState(values: {
      stateHash: string;
      userId: string;
      organizationId: string;
      codeVerifier: string;
      expiresAt: Date;
    }): Promise<void> {
      // Abandoned sign-ins are swept as new ones start.
      await db.delete(microsoftOauthStates).where(lt(microsoftOauthStates.expiresAt, new Date()));
      await db.insert(microsoftOauthStates).values(values);
    },

    /** Deletes and returns the state: whoever gets the row is the only one who ever will. */
    async takeState(stateHash: string): Promise<MicrosoftStateRow | undefined> {
      const [row] = await db
        .delete(microsoftOauthStates)
        .where(eq(microsoftOauthStates.stateHash, stateHash))
        .returning();
      return row;
    },

    async getTokens(organizationId: string): Promise<MicrosoftTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(microsoftTokens)
        .where(eq(microsoftTokens.organizationId, organizationId))
        .limit(1);
      return row;
    },

    async saveTokens(
      organizationId: string,
      values: {
        accessToken: string;
        refreshToken: string | null;
        expiresOn: Date;
        accountInfo: Record<string, unknown>;
      },
    ): Promise<void> {
      // A (re)connection starts the email trigger afresh: messages received before it are ignored,
      // the inbox is read from a new delta round, at once.
      const fresh = { brokenAt: null, connectedAt: new Date(), deltaLink: null, nextPollAt: null };
      await db
        .insert(microsoftTokens)
        .values({ organizationId, ...values, ...fresh })
        .onConflictDoUpdate({
          target: microsoftTokens.organizationId,
          set: { ...values, ...fresh, updatedAt: new Date() },
        });
    },

    async updateTokens(
      organizationId: string,
      values: { accessToken: string; refreshToken: string | null; expiresOn: Date },
    ): Promise<void> {
      await db
        .update(microsoftTokens)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(microsoftTokens.organizationId, organizationId));
    },

    async markBroken(organizationId: string): Promise<void> {
      await db
        .update(microsoftTokens)
        .set({ brokenAt: new Date(), updatedAt: new Date() })
        .where(eq(microsoftTokens.organizationId, organizationId));
    },

    async deleteTokens(organizationId: string): Promise<void> {
      await db.delete(microsoftTokens).where(eq(microsoftTokens.organizationId, organizationId));
    },
  };
}
export type MicrosoftRepository = ReturnType<typeof createMicrosoftRepository>;
