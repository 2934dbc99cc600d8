import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie, type SetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CHAT_THREAD_DAYS } from '@crewline/contracts';

/** Who a visitor is, between requests: `<visitorId>.<signature>`, sent to the chat routes only. */
const VISITOR_COOKIE = 'crewline_chat_visitor';
/** That this browser gave a password app's password: sent to that app's routes only. */
const UNLOCK_COOKIE = 'crewline_chat_unlock';
const UNLOCK_DAYS = 30;
const DAY_SECONDS = 86_400;

/** A key of its own for each use of the server's secret, so a signature of one is no signature of another. */
const keyFor = (secret: string, label: string) =>
  Buffer.from(hkdfSync('sha256', secret, '', `crewline ${label}`, 32));

const sign = (key: Buffer, value: string) => createHmac('sha256', key).update(value, 'utf8').digest();

/** Whether `given` (base64url) is `expected`, compared in constant time. */
function sameSignature(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, 'base64url');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

export type ChatCookies = ReturnType<typeof createChatCookies>;

/**
 * The chat's cookies (docs/security.md, Chat apps): the visitor cookie, which makes a browser's
 * threads its own, and a password app's unlock cookie. Both are signed with keys derived from the
 * server's secret and HttpOnly. On an https public URL they are `SameSite=None; Secure; Partitioned`,
 * so the widget's iframe on another site keeps them (in a jar of that site's own); on http, `Lax`.
 */
export function createChatCookies(options: { secret: string; publicUrl: string }) {
  const visitorKey = keyFor(options.secret, 'chat-visitor');
  const unlockKey = keyFor(options.secret, 'chat-unlock');
  const thirdParty: Partial<SetCookie> =
    new URL(options.publicUrl).protocol === 'https:'
      ? { sameSite: 'none', secure: true, partitioned: true }
      : { sameSite: 'lax' };
  const cookieOf = (request: FastifyRequest, name: string): string | undefined =>
    request.headers.cookie ? parseCookie(request.headers.cookie)[name] : undefined;
  const set = (reply: FastifyReply, name: string, value: string, path: string, days: number) =>
    reply.header(
      'set-cookie',
      stringifySetCookie({ name, value, path, maxAge: days * DAY_SECONDS, httpOnly: true, ...thirdParty }),
    );
  /** What unlocks a password app: its slug and its password's hash, so a new password locks everyone out. */
  const unlockSignature = (slug: string, passwordHash: string) => sign(unlockKey, `${slug}\n${passwordHash}`);

  return {
    /** The visitor id of the request's cookie, when its signature holds; null otherwise. */
    visitorOf(request: FastifyRequest): string | null {
      const value = cookieOf(request, VISITOR_COOKIE);
      const dot = value?.indexOf('.') ?? -1;
      if (!value || dot <= 0) return null;
      const id = value.slice(0, dot);
      return sameSignature(value.slice(dot + 1), sign(visitorKey, id)) ? id : null;
    },

    /** A new visitor id: 16 random bytes. */
    newVisitorId: () => randomBytes(16).toString('base64url'),

    /** Sets (or renews) the visitor cookie, for as long as a thread is kept. */
    setVisitor(reply: FastifyReply, visitorId: string): void {
      const value = `${visitorId}.${sign(visitorKey, visitorId).toString('base64url')}`;
      set(reply, VISITOR_COOKIE, value, '/api/chat', CHAT_THREAD_DAYS);
    },

    /** Whether the request carries the unlock cookie of this app's current password. */
    isUnlocked(request: FastifyRequest, slug: string, passwordHash: string): boolean {
      const value = cookieOf(request, UNLOCK_COOKIE);
      return !!value && sameSignature(value, unlockSignature(slug, passwordHash));
    },

    /** Sets the unlock cookie of the app, sent to its routes only. */
    setUnlocked(reply: FastifyReply, slug: string, passwordHash: string): void {
      const value = unlockSignature(slug, passwordHash).toString('base64url');
      set(reply, UNLOCK_COOKIE, value, `/api/chat/${encodeURIComponent(slug)}`, UNLOCK_DAYS);
    },
  };
}
