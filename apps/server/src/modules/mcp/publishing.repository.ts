import { and, eq } from 'drizzle-orm';
import { workflowPublishing, type Db } from '@crewline/db';
import {
  MCP_DEFAULT_TIMEOUT_SECONDS,
  type ChatAccess,
  type ChatPublishing,
  type McpPublishing,
} from '@crewline/contracts';
import { violatesUnique } from '../../platform/unique-violation';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditEntry, AuditRecorder } from '../audit/audit.service';
import { chatSettingsOf, type ChatSettings } from './publishing.columns';

/** The unique index that keeps a tool name to one workflow of an organization (migration 0042). */
const TOOL_NAME_UNIQUE = 'workflow_publishing_mcp_tool_name_unique';

/** The unique index that keeps a chat app's slug (its public address) to one workflow of all organizations (migration 0046). */
const CHAT_SLUG_UNIQUE = 'workflow_publishing_chat_slug_unique';

/** Whether `error` is Postgres refusing a second workflow under the same tool name. */
const isToolNameTaken = (error: unknown): boolean => violatesUnique(error, TOOL_NAME_UNIQUE);

/** A chat app as the repository stores it: the settings, and the password's hash (undefined keeps the stored one). */
export type StoredChat = {
  enabled: boolean;
  slug: string;
  access: ChatAccess;
  passwordHash?: string | null;
  settings: ChatSettings;
};

/** A row's chat app as the API answers it (`pageUrl`: the hosted page's address); null when there is none. */
export function chatOf(
  row: PublishingRow | undefined,
  pageUrl: (slug: string) => string,
): ChatPublishing | null {
  if (!row?.chatSlug) return null;
  return {
    enabled: row.chatEnabled,
    slug: row.chatSlug,
    access: row.chatAccess ?? 'members',
    hasPassword: row.chatPasswordHash !== null,
    url: pageUrl(row.chatSlug),
    ...chatSettingsOf(row.chatSettings),
  };
}

type PublishingRow = typeof workflowPublishing.$inferSelect;

/** A row's MCP publishing as the API answers it; null when the workflow is not published there. */
export function mcpOf(row: PublishingRow | undefined): McpPublishing | null {
  if (!row?.mcpToolName) return null;
  return {
    enabled: row.mcpEnabled,
    toolName: row.mcpToolName,
    description: row.mcpDescription ?? '',
    inputSchema: (row.mcpInputSchema ?? { type: 'object' }) as Record<string, unknown>,
    timeoutSeconds: row.mcpTimeoutSeconds ?? MCP_DEFAULT_TIMEOUT_SECONDS,
  };
}

/**
 * Where workflows are published (`workflow_publishing`, one row per workflow, for every surface):
 * the MCP server's columns and the chat app's (modules/chat reads the apps through its presenter). The organization is part of every statement, so another one's workflow is
 * simply not found.
 */
/** Who changes a workflow's publishing, and the workflow's name, for the audit log. */
export type PublishingChange = { actor: RequestActor; workflowName: string };

export function createPublishingRepository(db: Db, audit: AuditRecorder) {
  return {
    async get(organizationId: string, workflowId: string): Promise<PublishingRow | undefined> {
      const [row] = await db
        .select()
        .from(workflowPublishing)
        .where(
          and(
            eq(workflowPublishing.organizationId, organizationId),
            eq(workflowPublishing.workflowId, workflowId),
          ),
        );
      return row;
    },

    /**
     * Sets the workflow's MCP publishing (null clears it, the row stays for the other surfaces).
     * Answers 'taken' when another workflow of the organization holds the tool name.
     */
    async setMcp(
      organizationId: string,
      workflowId: string,
      mcp: McpPublishing | null,
      change: PublishingChange,
    ): Promise<PublishingRow | 'taken'> {
      const values = {
        mcpEnabled: mcp?.enabled ?? false,
        mcpToolName: mcp?.toolName ?? null,
        mcpDescription: mcp?.description ?? null,
        mcpInputSchema: mcp?.inputSchema ?? null,
        mcpTimeoutSeconds: mcp?.timeoutSeconds ?? null,
        updatedAt: new Date(),
      };
      const details = mcp ? { enabled: mcp.enabled, toolName: mcp.toolName } : { removed: true };
      try {
        return await upsert(organizationId, workflowId, values, {
          organizationId,
          actor: change.actor,
          action: 'publishing.mcp_changed',
          target: { type: 'workflow', id: workflowId, name: change.workflowName },
          details,
        });
      } catch (error) {
        if (isToolNameTaken(error)) return 'taken';
        throw error;
      }
    },

    /**
     * Sets the workflow's chat app (null removes it; the row stays for the other surfaces). Answers
     * 'taken' when any workflow of any organization holds the slug.
     */
    async setChat(
      organizationId: string,
      workflowId: string,
      chat: StoredChat | null,
      change: PublishingChange,
    ): Promise<PublishingRow | 'taken'> {
      const values = {
        chatEnabled: chat?.enabled ?? false,
        chatSlug: chat?.slug ?? null,
        chatAccess: chat?.access ?? null,
        chatSettings: chat?.settings ?? null,
        ...(chat === null ? { chatPasswordHash: null } : {}),
        ...(chat?.passwordHash !== undefined ? { chatPasswordHash: chat.passwordHash } : {}),
        updatedAt: new Date(),
      };
      // Whether a password was set or changed, never the password (nor its hash).
      const details = chat
        ? {
            enabled: chat.enabled,
            slug: chat.slug,
            access: chat.access,
            passwordChanged: chat.passwordHash !== undefined,
          }
        : { removed: true };
      try {
        return await upsert(organizationId, workflowId, values, {
          organizationId,
          actor: change.actor,
          action: 'publishing.chat_changed',
          target: { type: 'workflow', id: workflowId, name: change.workflowName },
          details,
        });
      } catch (error) {
        if (violatesUnique(error, CHAT_SLUG_UNIQUE)) return 'taken';
        throw error;
      }
    },
  };

  async function upsert(
    organizationId: string,
    workflowId: string,
    values: Partial<typeof workflowPublishing.$inferInsert>,
    event: AuditEntry,
  ): Promise<PublishingRow> {
    // The change and its audit event commit together.
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(workflowPublishing)
        .values({ workflowId, organizationId, ...values })
        .onConflictDoUpdate({
          target: workflowPublishing.workflowId,
          set: values,
          // The workflow's row is its organization's: another one's id never overwrites it.
          setWhere: eq(workflowPublishing.organizationId, organizationId),
        })
        .returning();
      if (row) await audit.record(tx, event);
      return row;
    });
  }
}
export type PublishingRepository = ReturnType<typeof createPublishingRepository>;
