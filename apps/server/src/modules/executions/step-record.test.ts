import { STEP_TOOL_RESULT_LIMIT } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { toolCall } from './step-record';

const trace = (args: unknown, result: unknown = 'ok') => ({
  name: 'notes_1234abcd',
  args,
  result,
  isError: false,
  durationMs: 12.4,
});

describe('a tool call as a step records it', () => {
  it('keeps arguments as the model wrote them, and cuts a result past the limit', () => {
    const call = toolCall(trace({ path: 'a.txt' }, 'x'.repeat(STEP_TOOL_RESULT_LIMIT + 10)));
    expect(call).toMatchObject({ arguments: { path: 'a.txt' }, truncated: true, durationMs: 12 });
    expect(call.result).toHaveLength(STEP_TOOL_RESULT_LIMIT);
    expect(toolCall(trace(undefined)).arguments).toEqual({});
  });

  it('stores the start of arguments longer than the limit, as text marked cut', () => {
    const content = 'y'.repeat(STEP_TOOL_RESULT_LIMIT * 3);
    const call = toolCall(trace({ operation: 'write', path: 'big.txt', content }));
    expect(typeof call.arguments).toBe('string');
    const text = call.arguments as string;
    expect(text.startsWith('{"operation":"write","path":"big.txt","content":"yyy')).toBe(true);
    expect(text).toHaveLength(STEP_TOOL_RESULT_LIMIT + 1);
    expect(text.endsWith('…')).toBe(true);
  });
});
