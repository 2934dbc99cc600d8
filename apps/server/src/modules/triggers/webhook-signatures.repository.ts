import { lt, sql } from 'drizzle-orm';
import { webhookSignaturesSeen, type Db } from '@crewline/db';

/**
 * The signatures of signed webhook calls already accepted, in Postgres so that a call replayed to
 * another API process is refused too. A row only has to outlive its call's tolerance window.
 */
export function createWebhookSignaturesRepository(db: Db) {
  return {
    /** Records a call's signature; false when the workflow has seen it before (a replay). */
    async remember(workflowId: string, signature: string, expiresAt: Date): Promise<boolean> {
      const rows = await db
        .insert(webhookSignaturesSeen)
        .values({ workflowId, signature, expiresAt })
        .onConflictDoNothing()
        .returning({ signature: webhookSignaturesSeen.signature });
      return rows.length > 0;
    },

    /** Deletes the rows whose calls can no longer be accepted anyway (webhook_signatures_seen_expires_at_idx). */
    async prune(): Promise<void> {
      await db.delete(webhookSignaturesSeen).where(lt(webhookSignaturesSeen.expiresAt, sql`now()`));
    },
  };
}
export type WebhookSignaturesRepository = ReturnType<typeof createWebhookSignaturesRepository>;
