import { chatMessages, type ChatPublishing } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  CHAT_BAD_APP_RATE,
  CHAT_BAD_CAP,
  CHAT_BAD_RATE,
  chatBodyOf,
  chatDraftOf,
  defaultChatSlug,
  placeChatError,
} from './chat-app-form';

describe('defaultChatSlug', () => {
  it('makes an address of the workflow name: lower case, single dashes, 3 to 48 characters', () => {
    expect(defaultChatSlug('Support Desk (EU)')).toBe('support-desk-eu');
    expect(defaultChatSlug('  Déjà vu — FAQ!  ')).toBe('deja-vu-faq');
    expect(defaultChatSlug('Q')).toBe('chat-q');
    expect(defaultChatSlug('!!!')).toBe('chat');
    expect(defaultChatSlug('a'.repeat(60))).toHaveLength(48);
  });
});

describe('chatBodyOf', () => {
  const draft = chatDraftOf(null, 'Support');

  it('refuses figures out of range under their fields', () => {
    const result = chatBodyOf(
      {
        ...draft,
        enabled: true,
        rateLimitPerMinute: '1.5',
        appRateLimitPerMinute: '10001',
        monthlyCapUsd: '-3',
      },
      false,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        rateLimitPerMinute: CHAT_BAD_RATE,
        appRateLimitPerMinute: CHAT_BAD_APP_RATE,
        monthlyCapUsd: CHAT_BAD_CAP,
      },
    });
  });

  it('names the field of a bad origin or accent', () => {
    const result = chatBodyOf(
      { ...draft, allowedOrigins: 'https://ok.example.com\nnot an origin', accent: 'blue' },
      false,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.allowedOrigins).toMatch(/^An allowed origin is a scheme/);
    expect(result.errors.accent).toBe('Accent color: a hex color such as #4f46e5');
  });

  it('asks for a password only when none is set yet', () => {
    const password = { ...draft, access: 'password' as const };
    expect(chatBodyOf(password, false)).toEqual({
      ok: false,
      errors: { password: chatMessages.passwordRequired },
    });
    expect(chatBodyOf(password, true).ok).toBe(true);
  });

  it('reads a saved app back as it was', () => {
    const saved: ChatPublishing = {
      enabled: true,
      slug: 'support',
      name: 'Support',
      greeting: '',
      suggestions: [],
      theme: { mode: 'light', accent: '#0ea5e9' },
      access: 'link',
      hasPassword: false,
      allowedOrigins: ['https://www.example.com'],
      rateLimitPerMinute: 5,
      appRateLimitPerMinute: 50,
      monthlyCapUsd: 12.5,
      url: 'https://crewline.example.com/chat/support',
    };
    const result = chatBodyOf(chatDraftOf(saved, 'Other name'), false);
    expect(result).toEqual({
      ok: true,
      body: {
        chat: {
          enabled: true,
          slug: 'support',
          name: 'Support',
          greeting: '',
          suggestions: [],
          theme: { mode: 'light', accent: '#0ea5e9' },
          access: 'link',
          allowedOrigins: ['https://www.example.com'],
          rateLimitPerMinute: 5,
          appRateLimitPerMinute: 50,
          monthlyCapUsd: 12.5,
        },
      },
    });
  });
});

describe('placeChatError', () => {
  it('puts a 409 under Slug and an unplaced message above Save', () => {
    const taken = chatMessages.slugTaken('support');
    expect(placeChatError({ status: 409, message: taken, errors: [] })).toEqual({
      fields: { slug: taken },
      banner: null,
    });
    expect(placeChatError({ status: 400, message: chatMessages.notActive, errors: [] })).toEqual({
      fields: {},
      banner: chatMessages.notActive,
    });
  });
});
