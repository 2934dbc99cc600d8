// The builder's Chat app section as data (docs/product-rules.md, Chat apps): the form's values as
// typed, their defaults from the workflow, the `{ chat }` body of PUT /api/workflows/:id/publishing,
// and where the server's refusal goes. The checks are the contract's (chatPublishingInputSchema), so
// the form refuses what the server would, with the same words.
import {
  CHAT_DEFAULT_ACCENT,
  CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
  CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
  CHAT_MAX_RATE_LIMIT_PER_MINUTE,
  chatMessages,
  chatPublishingInputSchema,
  type ChatAccess,
  type ChatPublishing,
  type ChatThemeMode,
  type UpdateWorkflowPublishing,
} from '@crewline/contracts';

/** The section's fields as typed (numbers and the origins as text). */
export interface ChatDraft {
  enabled: boolean;
  name: string;
  slug: string;
  greeting: string;
  suggestions: string[];
  themeMode: ChatThemeMode;
  accent: string;
  access: ChatAccess;
  /** A new password; empty keeps the one set. */
  password: string;
  /** One origin per line. */
  allowedOrigins: string;
  rateLimitPerMinute: string;
  appRateLimitPerMinute: string;
  /** USD; empty: no cap of the app's own. */
  monthlyCapUsd: string;
}

const CHAT_FIELDS = [
  'name',
  'slug',
  'greeting',
  'suggestions',
  'accent',
  'password',
  'allowedOrigins',
  'rateLimitPerMinute',
  'appRateLimitPerMinute',
  'monthlyCapUsd',
] as const;
export type ChatField = (typeof CHAT_FIELDS)[number];
export type ChatFieldErrors = Partial<Record<ChatField, string>>;

const SLUG_MAX = 48;
const wholeNumber = (label: string) =>
  `${label}: a whole number from 1 to ${CHAT_MAX_RATE_LIMIT_PER_MINUTE.toLocaleString('en-US')}`;
export const CHAT_BAD_RATE = wholeNumber('Messages per visitor per minute');
export const CHAT_BAD_APP_RATE = wholeNumber('Messages per minute for everyone');
export const CHAT_BAD_CAP = 'Monthly spending cap: an amount in USD above 0, or empty for none';

/** `Weekly Report (EU)` → `weekly-report-eu`: lower case, single dashes, 3 to 48 characters. */
export function defaultChatSlug(workflowName: string): string {
  const slug = workflowName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug.length >= 3 ? slug : `chat${slug ? `-${slug}` : ''}`;
}

/** The form for the saved app, or (none yet) switched off with defaults from the workflow. */
export function chatDraftOf(saved: ChatPublishing | null, workflowName: string): ChatDraft {
  if (saved) {
    return {
      enabled: saved.enabled,
      name: saved.name,
      slug: saved.slug,
      greeting: saved.greeting,
      suggestions: saved.suggestions,
      themeMode: saved.theme.mode,
      accent: saved.theme.accent,
      access: saved.access,
      password: '',
      allowedOrigins: saved.allowedOrigins.join('\n'),
      rateLimitPerMinute: String(saved.rateLimitPerMinute),
      appRateLimitPerMinute: String(saved.appRateLimitPerMinute),
      monthlyCapUsd: saved.monthlyCapUsd === null ? '' : String(saved.monthlyCapUsd),
    };
  }
  return {
    enabled: false,
    name: workflowName.trim() || 'Chat',
    slug: defaultChatSlug(workflowName),
    greeting: '',
    suggestions: [],
    themeMode: 'auto',
    accent: CHAT_DEFAULT_ACCENT,
    access: 'members',
    password: '',
    allowedOrigins: '',
    rateLimitPerMinute: String(CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE),
    appRateLimitPerMinute: String(CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE),
    monthlyCapUsd: '',
  };
}

function rate(text: string): number {
  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  return value >= 1 && value <= CHAT_MAX_RATE_LIMIT_PER_MINUTE ? value : NaN;
}

/**
 * The body to send (`{ chat }` alone: the MCP publishing stays as it is), or what is wrong under each
 * field. `hasPassword`: the app has one already, so an empty password keeps it.
 */
export function chatBodyOf(
  draft: ChatDraft,
  hasPassword: boolean,
): { ok: true; body: UpdateWorkflowPublishing } | { ok: false; errors: ChatFieldErrors } {
  const errors: ChatFieldErrors = {};
  const rateLimitPerMinute = rate(draft.rateLimitPerMinute);
  if (Number.isNaN(rateLimitPerMinute)) errors.rateLimitPerMinute = CHAT_BAD_RATE;
  const appRateLimitPerMinute = rate(draft.appRateLimitPerMinute);
  if (Number.isNaN(appRateLimitPerMinute)) errors.appRateLimitPerMinute = CHAT_BAD_APP_RATE;
  const capText = draft.monthlyCapUsd.trim();
  const monthlyCapUsd = capText === '' ? null : /^\d+(\.\d+)?$/.test(capText) ? Number(capText) : NaN;
  if (monthlyCapUsd !== null && !(monthlyCapUsd > 0)) errors.monthlyCapUsd = CHAT_BAD_CAP;
  if (draft.access === 'password' && !hasPassword && !draft.password) {
    errors.password = chatMessages.passwordRequired;
  }

  const parsed = chatPublishingInputSchema.safeParse({
    enabled: draft.enabled,
    name: draft.name,
    slug: draft.slug,
    greeting: draft.greeting,
    suggestions: draft.suggestions.map((s) => s.trim()).filter(Boolean),
    theme: { mode: draft.themeMode, accent: draft.accent },
    access: draft.access,
    ...(draft.access === 'password' && draft.password && { password: draft.password }),
    allowedOrigins: draft.allowedOrigins
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    rateLimitPerMinute: errors.rateLimitPerMinute ? CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE : rateLimitPerMinute,
    appRateLimitPerMinute: errors.appRateLimitPerMinute
      ? CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE
      : appRateLimitPerMinute,
    monthlyCapUsd: errors.monthlyCapUsd ? null : monthlyCapUsd,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.map(String));
      if (field && !errors[field]) errors[field] = issueText(field, issue.message);
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: { chat: parsed.data } };
}

/** The field a path names: `['theme', 'accent']` → accent, `['allowedOrigins', 2]` → allowedOrigins. */
function fieldOf(path: string[]): ChatField | null {
  const [head, second] = path;
  if (head === 'theme') return second === 'accent' ? 'accent' : null;
  return CHAT_FIELDS.includes(head as ChatField) ? (head as ChatField) : null;
}

/** zod's own words for a length say nothing of which field: name it. */
function issueText(field: ChatField, message: string): string {
  if (/^(Too (small|big)|Invalid)/i.test(message)) {
    const label: Record<ChatField, string> = {
      name: 'Name',
      slug: 'Slug',
      greeting: 'Greeting',
      suggestions: 'Suggested first messages',
      accent: 'Accent color',
      password: 'Password',
      allowedOrigins: 'Sites that may embed it',
      rateLimitPerMinute: 'Messages per visitor per minute',
      appRateLimitPerMinute: 'Messages per minute for everyone',
      monthlyCapUsd: 'Monthly spending cap',
    };
    return `${label[field]}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  }
  return message;
}

/**
 * Where the server's refusal goes: a 400's field errors (`chat.password`, `chat.theme.accent`) under
 * their fields, a 409 (the slug is taken) under Slug, a missing password under Password; anything else
 * (the workflow is not active, a lost connection) above the Save button.
 */
export function placeChatError(error: {
  status: number | null;
  message: string | null;
  errors: { path: string; message: string }[];
}): { fields: ChatFieldErrors; banner: string | null } {
  const fields: ChatFieldErrors = {};
  for (const issue of error.errors) {
    const field = fieldOf(issue.path.replace(/^chat\./, '').split('.'));
    if (field && !fields[field]) fields[field] = issue.message;
  }
  if (Object.keys(fields).length === 0 && error.message) {
    if (error.status === 409) fields.slug = error.message;
    else if (error.message === chatMessages.passwordRequired) fields.password = error.message;
  }
  const placed = Object.keys(fields).length > 0;
  return { fields, banner: placed ? null : error.message };
}

/** The widget's one tag for another site's page, served by this Crewline (`origin`). */
export function chatEmbedSnippet(origin: string, slug: string): string {
  return `<script src="${origin}/widget.js" data-app="${slug}" async></script>`;
}
