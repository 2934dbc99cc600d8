// Chat apps (docs/product-rules.md, Chat apps): a workflow published as a chat for people to talk to, on
// a hosted page (`/chat/<slug>`), in a widget other sites embed, and through an OpenAI-compatible
// endpoint (`POST /v1/chat/completions`).
import { z } from 'zod';

/** Who may use a chat app: signed-in members only, anyone with the link, or anyone with the link and its password. */
export const chatAccessValues = ['members', 'link', 'password'] as const;
export type ChatAccess = (typeof chatAccessValues)[number];
export const chatAccessLabels: Record<ChatAccess, string> = {
  members: 'Members of the organization',
  link: 'Anyone with the link',
  password: 'Anyone with the link and the password',
};

export const chatThemeModeValues = ['auto', 'light', 'dark'] as const;
export type ChatThemeMode = (typeof chatThemeModeValues)[number];

/** A slug is the app's public name in its URL: lower-case letters, digits and single dashes, 3 to 48. */
export const CHAT_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,47}$/;
/** Messages a visitor may send a minute by default, and all visitors of an app together. */
export const CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE = 10;
export const CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE = 120;
export const CHAT_MAX_RATE_LIMIT_PER_MINUTE = 10_000;
/** The longest message a person may send. */
export const CHAT_MAX_MESSAGE_CHARS = 8_000;
export const CHAT_MAX_SUGGESTIONS = 4;
export const CHAT_MAX_ALLOWED_ORIGINS = 20;
/** How long a thread is kept after its last message (and the visitor cookie lives). */
export const CHAT_THREAD_DAYS = 30;
/**
 * The history a run's input carries, in estimated tokens (a character is about a quarter of a
 * token; chat-history.ts): the newest turns that fit, the older ones dropped.
 */
export const CHAT_HISTORY_TOKEN_BUDGET = 4_000;
/** How long a message's request waits for its run's reply before it answers that the run goes on. */
export const CHAT_REPLY_WAIT_SECONDS = 120;
export const CHAT_DEFAULT_ACCENT = '#4f46e5';
export const CHAT_MIN_PASSWORD_CHARS = 8;

/** A web origin: http(s), a host (a name, an IPv4 or a bracketed IPv6 address) and an optional port. */
const ORIGIN_PATTERN =
  /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::\d{1,5})?$/;

const origin = z
  .string()
  .trim()
  .toLowerCase()
  .max(200)
  .transform((value) => value.replace(/\/$/, ''))
  .refine((value) => ORIGIN_PATTERN.test(value), {
    message: 'An allowed origin is a scheme, a host and an optional port, e.g. https://www.example.com',
  });

export const chatThemeSchema = z.object({
  mode: z.enum(chatThemeModeValues).default('auto'),
  accent: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Accent color: a hex color such as #4f46e5' })
    .default(CHAT_DEFAULT_ACCENT),
});
export type ChatTheme = z.infer<typeof chatThemeSchema>;

const rateLimit = z.number().int().min(1).max(CHAT_MAX_RATE_LIMIT_PER_MINUTE);

/** PUT /api/workflows/:id/publishing `{ chat }`: a chat app as its admin sets it. */
export const chatPublishingInputSchema = z.object({
  enabled: z.boolean(),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(CHAT_SLUG_PATTERN, { message: 'Slug: 3 to 48 lower-case letters, digits or single dashes' }),
  name: z.string().trim().min(1, { message: 'Name is required' }).max(100),
  greeting: z.string().trim().max(1000).optional(),
  suggestions: z.array(z.string().trim().min(1).max(200)).max(CHAT_MAX_SUGGESTIONS).optional(),
  theme: chatThemeSchema.optional(),
  access: z.enum(chatAccessValues),
  /** Required to make an app `password` the first time; absent keeps the one set. Never answered. */
  password: z.string().min(CHAT_MIN_PASSWORD_CHARS).max(200).optional(),
  /** Sites that may embed the widget (frame-ancestors); none: only the hosted page. */
  allowedOrigins: z.array(origin).max(CHAT_MAX_ALLOWED_ORIGINS).optional(),
  /** Messages one visitor may send a minute. */
  rateLimitPerMinute: rateLimit.optional(),
  /** Messages all visitors of the app together may send a minute. */
  appRateLimitPerMinute: rateLimit.optional(),
  /** What the app's runs may spend a calendar month (UTC), in USD; null or absent: no cap of its own. */
  monthlyCapUsd: z.number().positive().max(1_000_000).nullable().optional(),
});
export type ChatPublishingInput = z.input<typeof chatPublishingInputSchema>;

/** A chat app as the API answers it to the organization. */
export const chatPublishingSchema = z.object({
  enabled: z.boolean(),
  slug: z.string(),
  name: z.string(),
  greeting: z.string(),
  suggestions: z.array(z.string()),
  theme: chatThemeSchema,
  access: z.enum(chatAccessValues),
  /** Whether a password is set (it is never answered). */
  hasPassword: z.boolean(),
  allowedOrigins: z.array(z.string()),
  rateLimitPerMinute: z.number().int(),
  appRateLimitPerMinute: z.number().int(),
  monthlyCapUsd: z.number().nullable(),
  /** The hosted page's address. */
  url: z.string(),
});
export type ChatPublishing = z.infer<typeof chatPublishingSchema>;

/** GET /api/chat/:slug: what the chat page and the widget show before the first message. */
export const chatAppFaceSchema = z.object({
  slug: z.string(),
  name: z.string(),
  greeting: z.string(),
  suggestions: z.array(z.string()),
  theme: chatThemeSchema,
  access: z.enum(chatAccessValues),
  /**
   * What the visitor must do first: nothing (`ready`), sign in as a member (`sign-in`), or give the
   * password (`password`).
   */
  gate: z.enum(['ready', 'sign-in', 'password']),
});
export type ChatAppFace = z.infer<typeof chatAppFaceSchema>;

export const chatSlugParamsSchema = z.object({ slug: z.string().min(1).max(100) });
export const chatThreadParamsSchema = z.object({
  slug: z.string().min(1).max(100),
  threadId: z.string().uuid(),
});

export const chatUnlockSchema = z.object({ password: z.string().min(1).max(200) });
export const chatThreadCreatedSchema = z.object({ threadId: z.string().uuid() });
export const chatMessageInputSchema = z.object({
  message: z.string().trim().min(1, { message: 'Write a message' }).max(CHAT_MAX_MESSAGE_CHARS),
});

/** One turn's state: its run still going, its reply there, or its run failed (the reply is then the reason). */
export const chatTurnStatusValues = ['pending', 'done', 'failed'] as const;
export type ChatTurnStatus = (typeof chatTurnStatusValues)[number];

/** A thread's message: what a person wrote (`user`) or what the workflow answered (`assistant`). */
export const chatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** The run that answers (the user's message) or answered (the reply). */
  runId: z.string().nullable(),
  status: z.enum(chatTurnStatusValues),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatThreadSchema = z.object({
  threadId: z.string(),
  messages: z.array(chatMessageSchema),
});
export type ChatThread = z.infer<typeof chatThreadSchema>;

/** POST …/messages answered as JSON: the reply once the run ended (null while it still runs). */
export const chatReplySchema = z.object({
  reply: z.string().nullable(),
  runId: z.string(),
  status: z.enum(chatTurnStatusValues),
});
export type ChatReply = z.infer<typeof chatReplySchema>;

/**
 * POST …/messages answered as Server-Sent Events (`Accept: text/event-stream`): each `data:` line is
 * one of these as JSON. `run` first, then `delta`s of the reply as the model writes it (each
 * continues the text so far), then `done` with the whole reply, or `error`.
 */
export const chatStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), runId: z.string() }),
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('done'), runId: z.string(), reply: z.string() }),
  /** The run failed, or is still going when the request stops waiting (`runId` then says which to read later). */
  z.object({ type: z.literal('error'), message: z.string(), runId: z.string().optional() }),
]);
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;

/** The admin view: an app's threads, newest first. */
export const chatThreadSummarySchema = z.object({
  id: z.string(),
  /** A short, stable name of the visitor (a member's name when a member wrote). */
  visitor: z.string(),
  firstMessage: z.string(),
  messageCount: z.number().int(),
  createdAt: z.string(),
  lastMessageAt: z.string(),
});
export type ChatThreadSummary = z.infer<typeof chatThreadSummarySchema>;
export const chatThreadListSchema = z.array(chatThreadSummarySchema);
export const chatAdminThreadParamsSchema = z.object({ id: z.string().uuid(), threadId: z.string().uuid() });

/** The run input a chat message starts (documented for workflows that read it). */
export type ChatRunInput = {
  message: string;
  history: { role: 'user' | 'assistant'; content: string }[];
  threadId: string | null;
  visitor: { id: string; member: boolean };
};

export const chatMessages = {
  notFound: 'This chat does not exist, or is not available right now.',
  off: 'This chat is switched off right now. Try again later.',
  signIn: 'Sign in as a member of the organization to use this chat.',
  password: 'This chat needs its password.',
  wrongPassword: 'That password is not right.',
  passwordRequired: 'Set a password for a chat that asks for one.',
  slugTaken: (slug: string) => `The chat address "${slug}" is taken: choose another slug.`,
  notActive: 'Only an active workflow can be published as a chat: activate it first.',
  threadNotFound: 'This conversation does not exist, or has expired.',
  tooMany: (seconds: number) => `Too many messages. Try again in ${seconds} s.`,
  capReached: 'This chat has used its budget for the month. Try again next month.',
  noReply: 'The workflow finished without a reply.',
  stillRunning: 'The reply is taking longer than usual: it will appear here when it is ready.',
  failed: 'Sorry, something went wrong while answering. Try again.',
};
