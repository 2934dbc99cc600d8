import {
  CHAT_DEFAULT_ACCENT,
  CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
  CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
  type ChatPublishing,
} from '@crewline/contracts';

/*
 * What the publishing rows (this module's `workflow_publishing`) mean to other modules' reads: a chat
 * app's settings as `chat_settings` keeps them (modules/chat reads the apps through its presenter).
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
