import { describe, expect, it } from 'vitest';
import { AGENT_MEMORY_MAX_LENGTH } from '@crewline/contracts';
import { FACTS_PER_STEP, extractionTask, parseFacts, withMemories } from './memory-prompt';

describe('parseFacts', () => {
  it('takes one fact a line, without list marks, quotes, blank lines or NONE', () => {
    expect(
      parseFacts('- The client is Acme\n\n* Budget: 10k EUR\n2) Deadline is March 3\n"Prefers email"\nNONE'),
    ).toEqual(['The client is Acme', 'Budget: 10k EUR', 'Deadline is March 3', 'Prefers email']);
  });

  it('answers none for NONE, whatever its case', () => {
    expect(parseFacts('NONE')).toEqual([]);
    expect(parseFacts('none.')).toEqual([]);
    expect(parseFacts('  \n ')).toEqual([]);
  });

  it('keeps a fact once, at most FACTS_PER_STEP, each cut at a word', () => {
    expect(parseFacts('- A\n- A\n- B')).toEqual(['A', 'B']);
    const many = Array.from({ length: 9 }, (_, i) => `- Fact ${i}`).join('\n');
    expect(parseFacts(many)).toHaveLength(FACTS_PER_STEP);
    const [long] = parseFacts(`${'word '.repeat(100)}end`);
    expect(long.length).toBeLessThanOrEqual(AGENT_MEMORY_MAX_LENGTH);
    expect(long).toMatch(/word…$/);
  });
});

describe('withMemories', () => {
  it('adds the memories after the system prompt, or alone, and nothing when there are none', () => {
    expect(withMemories('You are Ada.', [])).toBe('You are Ada.');
    expect(withMemories('You are Ada.', ['Bob likes tea'])).toBe(
      'You are Ada.\n\nWhat you remember from earlier tasks (use it when it helps; it may be out of date):\n- Bob likes tea',
    );
    expect(withMemories('', ['Bob likes tea'])).toMatch(/^What you remember/);
  });
});

describe('extractionTask', () => {
  it('gives the task and the answer, each cut when very long', () => {
    expect(extractionTask('Book a room', 'Booked room 42')).toBe(
      'Task:\nBook a room\n\nAnswer:\nBooked room 42',
    );
    expect(extractionTask('x'.repeat(10_000), 'ok').length).toBeLessThan(6_100);
  });
});
