import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { workflowPublishing, workflows, type Db } from '@crewline/db';
import type { ChatAccess, Workflow } from '@crewline/contracts';
import { chatSettingsOf, type ChatSettings } from '../mcp/publishing.columns';

/** A chat app as its surfaces serve it: where it lives, who may use it and its settings. */
export type ChatApp = ChatSettings & {
  organizationId: string;
  workflowId: string;
  workflowStatus: Workflow['status'];
  enabled: boolean;
  slug: string;
  access: ChatAccess;
  passwordHash: string | null;
  /** When its publishing row last changed (`GET /v1/models` answers it as the model's `created`). */
  updatedAt?: Date | null;
};

const columns = {
  organizationId: workflowPublishing.organizationId,
  workflowId: workflowPublishing.workflowId,
  workflowStatus: workflows.status,
  enabled: workflowPublishing.chatEnabled,
  slug: workflowPublishing.chatSlug,
  access: workflowPublishing.chatAccess,
  passwordHash: workflowPublishing.chatPasswordHash,
  settings: workflowPublishing.chatSettings,
  updatedAt: workflowPublishing.updatedAt,
};

type Row = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | null };

const appOf = ({ settings, ...row }: Row): ChatApp => ({
  ...(row as Omit<ChatApp, keyof ChatSettings>),
  access: row.access ?? 'members',
  ...chatSettingsOf(settings),
});

/**
 * The chat apps as their surfaces read them (a presenter over the publishing rows, which modules/mcp
 * writes, and their workflows): by slug for the public routes, the page and the widget, whatever the
 * organization; by organization for `GET /v1/models`.
 */
export function createChatAppsPresenter(db: Db) {
  return {
    /** The app at `slug` (switched on or off), or undefined. */
    async bySlug(slug: string): Promise<ChatApp | undefined> {
      const [row] = await db
        .select(columns)
        .from(workflowPublishing)
        .innerJoin(workflows, eq(workflows.id, workflowPublishing.workflowId))
        .where(eq(workflowPublishing.chatSlug, slug.toLowerCase()));
      return row ? appOf(row as Row) : undefined;
    },

    /** The organization's apps, by slug. */
    async ofOrganization(organizationId: string): Promise<ChatApp[]> {
      const rows = await db
        .select(columns)
        .from(workflowPublishing)
        .innerJoin(workflows, eq(workflows.id, workflowPublishing.workflowId))
        .where(
          and(
            eq(workflowPublishing.organizationId, organizationId),
            eq(workflows.organizationId, organizationId),
            isNotNull(workflowPublishing.chatSlug),
          ),
        )
        .orderBy(asc(workflowPublishing.chatSlug));
      return rows.map((row) => appOf(row as Row));
    },
  };
}
export type ChatAppsPresenter = ReturnType<typeof createChatAppsPresenter>;
