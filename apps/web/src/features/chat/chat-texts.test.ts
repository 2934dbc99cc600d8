import {
  CHAT_DEFAULT_ACCENT as CONTRACT_ACCENT,
  CHAT_MAX_MESSAGE_CHARS as CONTRACT_MAX,
  chatMessages,
} from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { CHAT_DEFAULT_ACCENT, CHAT_MAX_MESSAGE_CHARS, CHAT_TEXTS } from './chat-texts';

describe("the chat page's texts match the contracts", () => {
  it('quotes every message it shows as the contracts word it', () => {
    for (const key of Object.keys(CHAT_TEXTS) as (keyof typeof CHAT_TEXTS)[]) {
      const quoted = CHAT_TEXTS[key];
      const product = chatMessages[key];
      if (typeof quoted === 'function' && typeof product === 'function') {
        expect(quoted(42)).toBe(product(42));
      } else {
        expect(quoted, key).toBe(product);
      }
    }
  });

  it('uses the same message length and default accent', () => {
    expect(CHAT_MAX_MESSAGE_CHARS).toBe(CONTRACT_MAX);
    expect(CHAT_DEFAULT_ACCENT).toBe(CONTRACT_ACCENT);
  });
});
