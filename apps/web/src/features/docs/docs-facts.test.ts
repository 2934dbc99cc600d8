import {
  CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE as CONTRACT_CHAT_APP_RATE,
  CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE as CONTRACT_CHAT_RATE,
  CHAT_HISTORY_TOKEN_BUDGET as CONTRACT_CHAT_HISTORY,
  CHAT_MAX_ALLOWED_ORIGINS as CONTRACT_CHAT_ORIGINS,
  CHAT_MAX_MESSAGE_CHARS as CONTRACT_CHAT_MESSAGE_CHARS,
  CHAT_MAX_SUGGESTIONS as CONTRACT_CHAT_SUGGESTIONS,
  CHAT_MIN_PASSWORD_CHARS as CONTRACT_CHAT_PASSWORD,
  CHAT_REPLY_WAIT_SECONDS as CONTRACT_CHAT_WAIT,
  CHAT_THREAD_DAYS as CONTRACT_CHAT_DAYS,
  chatAccessLabels,
  chatMessages,
  API_KEY_PREFIX as CONTRACT_API_KEY_PREFIX,
  apiKeyMessages,
  MCP_DEFAULT_TIMEOUT_SECONDS as CONTRACT_MCP_DEFAULT_TIMEOUT_SECONDS,
  MCP_GET_RUN_TOOL as CONTRACT_MCP_GET_RUN_TOOL,
  MCP_MAX_RESULT_BYTES,
  MCP_MAX_TIMEOUT_SECONDS as CONTRACT_MCP_MAX_TIMEOUT_SECONDS,
  mcpMessages,
  toolCategoryValues,
  WEBHOOK_SECRET_HEADER as CONTRACT_WEBHOOK_SECRET_HEADER,
  WEBHOOK_SIGNATURE_HEADER as CONTRACT_WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER as CONTRACT_WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_WAIT_SECONDS as CONTRACT_WEBHOOK_WAIT_SECONDS,
  webhookMessages,
} from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  CHAT_ACCESS_LABELS,
  CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
  CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
  CHAT_HISTORY_TOKEN_BUDGET,
  CHAT_MAX_ALLOWED_ORIGINS,
  CHAT_MAX_MESSAGE_CHARS,
  CHAT_MAX_SUGGESTIONS,
  CHAT_MESSAGES,
  CHAT_MIN_PASSWORD_CHARS,
  CHAT_REPLY_WAIT_SECONDS,
  CHAT_THREAD_DAYS,
  DOCS_PLANS,
  MCP_DEFAULT_TIMEOUT_SECONDS,
  MCP_GET_RUN_TOOL,
  MCP_MAX_RESULT_MIB,
  MCP_MAX_TIMEOUT_SECONDS,
  MCP_MESSAGES,
  TOOL_CATEGORIES,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_WAIT_SECONDS,
} from './docs-facts';

// Plans, statuses and tool categories come from the vocabulary (tested in packages/contracts); the
// webhook and API key texts are quoted without importing the contracts (see docs-facts.ts).
describe('docs facts match the product', () => {
  it('the plans table: dollars a month and API access, per plan', () => {
    expect(DOCS_PLANS.map((p) => [p.name, p.price, p.apiAccess])).toEqual([
      ['Starter', 19, false],
      ['Professional', 49, true],
      ['Enterprise', 149, true],
    ]);
  });

  it('the tools table describes every tool category once', () => {
    expect(TOOL_CATEGORIES.map((c) => c.id).sort()).toEqual([...toolCategoryValues].sort());
    expect(TOOL_CATEGORIES.find((c) => c.id === 'web')?.label).toBe('Web Tools');
  });

  it('webhook and API key texts', () => {
    expect(WEBHOOK_SECRET_HEADER).toBe(CONTRACT_WEBHOOK_SECRET_HEADER);
    expect(WEBHOOK_TIMESTAMP_HEADER).toBe(CONTRACT_WEBHOOK_TIMESTAMP_HEADER);
    expect(WEBHOOK_SIGNATURE_HEADER).toBe(CONTRACT_WEBHOOK_SIGNATURE_HEADER);
    expect(WEBHOOK_WAIT_SECONDS).toBe(CONTRACT_WEBHOOK_WAIT_SECONDS);
    expect(WEBHOOK_MESSAGES.notFound).toBe(webhookMessages.notFound);
    expect(WEBHOOK_MESSAGES.badSecret).toBe(webhookMessages.badSecret);
    expect(WEBHOOK_MESSAGES.notActive).toBe(webhookMessages.notActive);
    expect(API_KEY_PREFIX).toBe(CONTRACT_API_KEY_PREFIX);
    expect(API_KEY_MESSAGES.invalid).toBe(apiKeyMessages.invalid);
    expect(API_KEY_MESSAGES.sessionOnly).toBe(apiKeyMessages.sessionOnly);
  });

  it('MCP figures and texts', () => {
    expect(MCP_DEFAULT_TIMEOUT_SECONDS).toBe(CONTRACT_MCP_DEFAULT_TIMEOUT_SECONDS);
    expect(MCP_MAX_TIMEOUT_SECONDS).toBe(CONTRACT_MCP_MAX_TIMEOUT_SECONDS);
    expect(MCP_MAX_RESULT_MIB * 1024 * 1024).toBe(MCP_MAX_RESULT_BYTES);
    expect(MCP_GET_RUN_TOOL).toBe(CONTRACT_MCP_GET_RUN_TOOL);
    expect(MCP_MESSAGES.notActive).toBe(mcpMessages.notActive);
    expect(MCP_MESSAGES.toolNameTaken('triage')).toBe(mcpMessages.toolNameTaken('triage'));
    expect(MCP_MESSAGES.plainHttp).toBe(mcpMessages.plainHttp);
  });

  it('chat app figures and texts', () => {
    expect(CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE).toBe(CONTRACT_CHAT_RATE);
    expect(CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE).toBe(CONTRACT_CHAT_APP_RATE);
    expect(CHAT_MAX_MESSAGE_CHARS).toBe(CONTRACT_CHAT_MESSAGE_CHARS);
    expect(CHAT_MAX_SUGGESTIONS).toBe(CONTRACT_CHAT_SUGGESTIONS);
    expect(CHAT_MAX_ALLOWED_ORIGINS).toBe(CONTRACT_CHAT_ORIGINS);
    expect(CHAT_THREAD_DAYS).toBe(CONTRACT_CHAT_DAYS);
    expect(CHAT_HISTORY_TOKEN_BUDGET).toBe(CONTRACT_CHAT_HISTORY);
    expect(CHAT_REPLY_WAIT_SECONDS).toBe(CONTRACT_CHAT_WAIT);
    expect(CHAT_MIN_PASSWORD_CHARS).toBe(CONTRACT_CHAT_PASSWORD);
    expect(CHAT_MESSAGES.notActive).toBe(chatMessages.notActive);
    expect(CHAT_MESSAGES.slugTaken('support')).toBe(chatMessages.slugTaken('support'));
    expect(CHAT_MESSAGES.tooMany(12)).toBe(chatMessages.tooMany(12));
    expect(CHAT_MESSAGES.off).toBe(chatMessages.off);
    expect(CHAT_MESSAGES.capReached).toBe(chatMessages.capReached);
    expect(CHAT_ACCESS_LABELS).toEqual(chatAccessLabels);
  });
});
