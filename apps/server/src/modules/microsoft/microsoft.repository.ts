import { eq, lt } from 'drizzle-orm';
import { microsoftOauthStates, microsoftTokens, type Db } from '@crewline/db';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditRecorder } from '../audit/audit.service';

export type MicrosoftTokenRow = typeof microsoftTokens.$inferSelect;
export type MicrosoftStateRow = typeof microsoftOauthStates.$inferSelect;

/** The organization's mailbox connection as the audit log names it. */
const mailboxTarget = { type: 'connection', id: 'microsoft365', name: 'Microsoft 365' } as const;

/** Token values arrive and leave sealed: this layer never sees plaintext. */
export function createMicrosoftRepository(db: Db, audit: AuditRecorder) {
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
      actor: RequestActor,
    ): Promise<void> {
      // A (re)connection starts the email trigger afresh: messages received before it are ignored,
      // the inbox is read from a new delta round, at once.
      const fresh = { brokenAt: null, connectedAt: new Date(), deltaLink: null, nextPollAt: null };
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ organizationId: microsoftTokens.organizationId })
          .from(microsoftTokens)
          .where(eq(microsoftTokens.organizationId, organizationId));
        await tx
          .insert(microsoftTokens)
          .values({ organizationId, ...values, ...fresh })
          .onConflictDoUpdate({
            target: microsoftTokens.organizationId,
            set: { ...values, ...fresh, updatedAt: new Date() },
          });
        // The mailbox it reads, never a token.
        await audit.record(tx, {
          organizationId,
          actor,
          action: before ? 'connection.updated' : 'connection.created',
          target: mailboxTarget,
          details: { account: values.accountInfo.email ?? null },
        });
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

    async deleteTokens(organizationId: string, actor: RequestActor): Promise<void> {
      await db.transaction(async (tx) => {
        const deleted = await tx
          .delete(microsoftTokens)
          .where(eq(microsoftTokens.organizationId, organizationId))
          .returning({ organizationId: microsoftTokens.organizationId });
        if (deleted.length === 0) return;
        await audit.record(tx, {
          organizationId,
          actor,
          action: 'connection.deleted',
          target: mailboxTarget,
        });
      });
    },
  };
}
export type MicrosoftRepository = ReturnType<typeof createMicrosoftRepository>;
