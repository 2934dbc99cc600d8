import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, buildUserPrompt } from './prompt';

describe('agent prompts', () => {
  it('puts role, goal, backstory and the system prompt into the system message', () => {
    const system = buildSystemPrompt({
      name: 'Ada',
      role: 'a senior researcher',
      goal: 'Find primary sources',
      backstory: 'Worked at a library for years.',
      systemPrompt: 'Answer in French.',
    });
    expect(system).toBe(
      'You are Ada, a senior researcher.\n\nYour goal: Find primary sources\n\nYour backstory: Worked at a library for years.\n\nAnswer in French.',
    );
  });

  it('leaves out empty optional parts', () => {
    expect(buildSystemPrompt({ name: 'A', role: 'r', goal: 'g', backstory: ' ', systemPrompt: null })).toBe(
      'You are A, r.\n\nYour goal: g',
    );
  });

  it('adds instructions, parameters and predecessor outputs after the input', () => {
    const user = buildUserPrompt({
      input: 'Write a post',
      instructions: 'Keep it short',
      parameters: { tone: 'friendly', words: 200 },
      context: [{ agentName: 'Researcher', content: 'Three facts' }],
    });
    expect(user).toBe(
      'Write a post\n\nInstructions for this run:\nKeep it short\n\nParameters:\n- tone: friendly\n- words: 200\n\nOutput of Researcher:\nThree facts',
    );
    expect(buildUserPrompt({ input: 'Hi' })).toBe('Hi');
  });
});
