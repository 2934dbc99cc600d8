import { and, eq, lt, sql } from 'drizzle-orm';
import type { McpOauthStatus } from '@crewline/contracts';
import { mcpOauthFlows, tools, type Db } from '@crewline/db';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditRecorder } from '../audit/audit.service';
import { mcpSignInEvent } from './tool-audit';

export type McpOauthFlowRow = typeof mcpOauthFlows.$inferSelect;

/** An MCP connection's OAuth state as stored: the sealed JSON (tokens, client, discovery) and its status. */
export type StoredMcpOauth = { sealed: string | null; status: McpOauthStatus };

/**
 * The OAuth sign-ins of MCP connections in progress, and each connection's tokens. Values arrive and
 * leave sealed: this layer never sees plaintext. Every query is scoped by organization.
 */
export function createMcpOauthRepository(db: Db, audit: AuditRecorder) {
  const scoped = (organizationId: string, toolId: string) =>
    and(eq(tools.organizationId, organizationId), eq(tools.id, toolId));

  return {
    async saveFlow(values: typeof mcpOauthFlows.$inferInsert): Promise<void> {
      // Abandoned sign-ins are swept as new ones start.
      await db.delete(mcpOauthFlows).where(lt(mcpOauthFlows.expiresAt, new Date()));
      await db.insert(mcpOauthFlows).values(values);
    },

    /** Deletes and returns the flow: whoever gets the row is the only one who ever will. */
    async takeFlow(stateHash: string): Promise<McpOauthFlowRow | undefined> {
      const [row] = await db.delete(mcpOauthFlows).where(eq(mcpOauthFlows.stateHash, stateHash)).returning();
      return row;
    },

    async read(organizationId: string, toolId: string): Promise<StoredMcpOauth | undefined> {
      const [row] = await db
        .select({ sealed: tools.mcpOauth, status: tools.mcpOauthStatus })
        .from(tools)
        .where(scoped(organizationId, toolId))
        .limit(1);
      if (!row) return undefined;
      return { sealed: row.sealed, status: row.status ?? 'disconnected' };
    },

    /** Stores what a sign-in or a refresh produced; the connection works again. */
    async save(organizationId: string, toolId: string, sealed: string): Promise<void> {
      await db
        .update(tools)
        .set({ mcpOauth: sealed, mcpOauthStatus: 'connected', updatedAt: sql`now()` })
        .where(scoped(organizationId, toolId));
    },

    /** Stores a finished sign-in's tokens and its audit event (who signed in, never a token) together. */
    async signedIn(organizationId: string, toolId: string, sealed: string, actor: RequestActor) {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(tools)
          .set({ mcpOauth: sealed, mcpOauthStatus: 'connected', updatedAt: sql`now()` })
          .where(scoped(organizationId, toolId))
          .returning({ id: tools.id, name: tools.name, organizationId: tools.organizationId });
        if (row) await audit.record(tx, mcpSignInEvent(row, 'signed_in', actor));
      });
    },

    /**
     * The authorization server refused the connection's refresh token: it needs an admin's sign-in.
     * Only while the stored state is still the one that was refused (`refused`): a refresh another
     * process made meanwhile is not undone. Answers whether it was marked.
     */
    async markReconnect(organizationId: string, toolId: string, refused: string): Promise<boolean> {
      const marked = await db
        .update(tools)
        .set({ mcpOauthStatus: 'reconnect' })
        .where(and(scoped(organizationId, toolId), eq(tools.mcpOauth, refused)))
        .returning({ id: tools.id });
      return marked.length > 0;
    },
  };
}
export type McpOauthRepository = ReturnType<typeof createMcpOauthRepository>;
