import { describe, expect, it } from 'vitest';

import { forgetAllQuestion, memoryCountLine, memoryExcerpt, noMemoriesHint } from './agent-memory-display';

describe('agent memory display', () => {
  it('names a long memory by its start, cut at a word', () => {
    expect(memoryExcerpt('Grace prefers invoices by email')).toBe('Grace prefers invoices by email');
    expect(
      memoryExcerpt('The customer prefers invoices by email, sent on the first day of each month', 40),
    ).toBe('The customer prefers invoices by email…');
  });

  it('hints how memories come, whether memory is on or off', () => {
    expect(noMemoriesHint(false)).toBe('Turn Memory on and run the agent in a workflow.');
    expect(noMemoriesHint(true)).toBe('Run the agent in a workflow: it keeps the facts worth remembering.');
  });

  it('asks before forgetting everything', () => {
    expect(forgetAllQuestion(12, 'Concierge')).toBe(
      'Forget all 12 memories of Concierge? This cannot be undone.',
    );
    expect(forgetAllQuestion(1, 'Concierge')).toBe(
      'Forget the only memory of Concierge? This cannot be undone.',
    );
  });

  it('counts the matches, and says when only the newest are listed', () => {
    expect(memoryCountLine(2, 2, false)).toBeNull();
    expect(memoryCountLine(200, 350, false)).toBe('The newest 200 of 350 memories are shown.');
    expect(memoryCountLine(1, 1, true)).toBe('1 memory matches.');
    expect(memoryCountLine(200, 240, true)).toBe('240 memories match; the newest 200 are shown.');
    expect(memoryCountLine(0, 0, true)).toBeNull();
  });
});
