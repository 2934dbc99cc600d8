import { sql, type SQL } from 'drizzle-orm';
import { workflowPublishing } from '@crewline/db';
import {
  CHAT_DEFAULT_ACCENT,
  CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
  CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
  type ChatPublishing,
} from '@crewline/contracts';

/*
 * What the publishing rows (this module's `workflow_publishing`) mean to other modules' reads: a chat
 * app's settings as `chat_settings` keeps them (modules/chat reads the apps through its presenter),
 * and its monthly cap as a column of a run's start and claim (modules/costs' budgets.columns.ts).
 */

/** A chat app's settings as `chat_settings` keeps them (the columns hold what statements look up). */
export type ChatSettings = Omit<ChatPublishing, 'enabled' | 'slug' | 'access' | 'hasPassword' | 'url'>;

/** The stored settings with the defaults of what older rows or partial writes lack. */
export function chatSettingsOf(json: unknown): ChatSettings {
  const s = (json ?? {}) as Partial<ChatSettings>;
  return {
    name: s.name ?? '',
    greeting: s.greeting ?? '',
    suggestions: s.suggestions ?? [],
    theme: { mode: s.theme?.mode ?? 'auto', accent: s.theme?.accent ?? CHAT_DEFAULT_ACCENT },
    allowedOrigins: s.allowedOrigins ?? [],
    rateLimitPerMinute: s.rateLimitPerMinute ?? CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
    appRateLimitPerMinute: s.appRateLimitPerMinute ?? CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
    monthlyCapUsd: s.monthlyCapUsd ?? null,
  };
}

/**
 * The monthly cap of the chat app of the workflow `workflowId` (an SQL expression of the statement
 * that reads it), in micro-dollars as the caps' counters keep them (`chat_settings.monthlyCapUsd`);
 * null when the workflow has no chat app or its app no cap. A run's start and claim read it with the
 * statements they make (app.ts hands it to modules/executions, which the module graph keeps from here).
 */
export const chatCapMicrosSql = (workflowId: SQL): SQL<unknown> => sql`(
  select case when jsonb_typeof(p.chat_settings->'monthlyCapUsd') = 'number'
    then round((p.chat_settings->>'monthlyCapUsd')::numeric * 1000000)::bigint end
  from ${workflowPublishing} p where p.workflow_id = ${workflowId})`;
