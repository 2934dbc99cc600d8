import { describe, expect, it } from 'vitest';
import { isRetryTaken } from './run-retry.repository';

describe('a retry that lost the race', () => {
  const unique = { code: '23505', constraint: 'workflow_executions_retry_of_unique' };

  it("is the retry_of unique index's violation, from the driver or wrapped by drizzle", () => {
    expect(isRetryTaken(unique)).toBe(true);
    expect(isRetryTaken(Object.assign(new Error('Failed query'), { cause: unique }))).toBe(true);
  });

  it('is no other error: another constraint, another code, no code', () => {
    expect(isRetryTaken({ code: '23505', constraint: 'workflow_executions_pkey' })).toBe(false);
    expect(isRetryTaken({ cause: { code: '23503', constraint: unique.constraint } })).toBe(false);
    expect(isRetryTaken(new Error('connection lost'))).toBe(false);
  });
});
