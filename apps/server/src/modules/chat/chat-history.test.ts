import { describe, expect, it } from 'vitest';
import { cappedHistory } from './chat-history';

const turn = (role: 'user' | 'assistant', chars: number, mark = '') => ({
  role,
  content: mark + 'x'.repeat(chars - mark.length),
});

describe('cappedHistory', () => {
  it('keeps a short thread whole, in order', () => {
    const turns = [turn('user', 40, 'a'), turn('assistant', 40, 'b'), turn('user', 40, 'c')];
    expect(cappedHistory(turns, 100)).toEqual(turns);
  });

  it('drops the oldest messages whole once the newest fill the budget', () => {
    // 100 tokens: each message of 160 characters is 40, so the newest two fit and the third does not.
    const turns = [turn('user', 160, 'first'), turn('assistant', 160, 'second'), turn('user', 160, 'third')];
    const kept = cappedHistory(turns, 100);
    expect(kept.map((t) => t.content.slice(0, 6))).toEqual(['second', 'third'].map((m) => m.padEnd(6, 'x')));
  });

  it('drops everything before a message that alone is over the budget', () => {
    const turns = [turn('user', 40, 'old'), turn('assistant', 2000, 'huge'), turn('user', 40, 'new')];
    expect(cappedHistory(turns, 100).map((t) => t.content.slice(0, 3))).toEqual(['new']);
  });
});
