import { WorkflowRunError } from '@crewline/engine';
import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LlmConfigurationError } from '../../platform/llm';
import { OutputDeliveryError } from './output-delivery';
import { isExpected, readableError } from './run-errors';

describe("a run's error as the user reads it", () => {
  it('keeps the words of failures met in normal use', () => {
    for (const error of [
      new WorkflowRunError('The workflow has no agent connected to its start node'),
      new OutputDeliveryError('Writer could not send its output to the webhook'),
      new LlmConfigurationError('No OpenAI connection is configured'),
    ]) {
      expect(isExpected(error)).toBe(true);
      expect(readableError(error)).toBe(error.message);
    }
  });

  it('says the run stopped unexpectedly for anything else, never quoting a statement', () => {
    expect(readableError(new Error('boom'))).toBe('The run stopped unexpectedly: boom');
    expect(readableError(new Error(''))).toBe('The run stopped unexpectedly');
    expect(readableError('a string')).toBe('The run stopped unexpectedly');
    const query = new DrizzleQueryError('insert into secrets values ($1)', ['key'], new Error('deadlock'));
    expect(readableError(query)).toBe('The run stopped unexpectedly: a database error');
    expect(isExpected(query)).toBe(false);
  });
});
