import { describe, expect, it } from 'vitest';
import { executionWait, readStoredWait } from './stored-wait';

// The stored format of a waiting run's wait, read as a run stored under an older Crewline wrote it:
// plain JSON written out here, never built with the current types.
const approvalV1 = {
  v: 1,
  kind: 'approval',
  stepId: 'approve',
  title: 'Refund 120 € to Acme?',
  since: '2026-11-30T09:00:00.000Z',
  until: '2026-12-07T09:00:00.000Z',
  approvalId: '0b8f3c1e-4a3d-4f0e-9a55-7c0d2b1e9f10',
};

describe('reading a stored wait', () => {
  it('reads a v1 approval wait as it was stored', () => {
    expect(readStoredWait(approvalV1)).toEqual(approvalV1);
  });

  it('reads a v1 wait with its optional parts missing: no title, no time, no approval', () => {
    expect(readStoredWait({ v: 1, kind: 'delay', stepId: 'wait' })).toEqual({
      v: 1,
      kind: 'delay',
      stepId: 'wait',
      title: '',
      since: '1970-01-01T00:00:00.000Z',
      until: null,
      approvalId: null,
    });
  });

  it('reads no wait from an unknown version, kind or shape', () => {
    for (const stored of [
      { ...approvalV1, v: 2 },
      { ...approvalV1, v: '1' },
      { ...approvalV1, v: undefined },
      { ...approvalV1, kind: 'webhook' },
      { ...approvalV1, stepId: 42 },
      { v: 1, kind: 'approval' },
      [approvalV1],
      [],
      'waiting',
      42,
      null,
      undefined,
    ])
      expect(readStoredWait(stored), JSON.stringify(stored) ?? 'undefined').toBeNull();
  });
});

describe('what a run says it waits for', () => {
  it('is its stored wait while it waits, and nothing once it runs or has ended', () => {
    expect(executionWait('waiting', approvalV1)).toEqual({
      kind: 'approval',
      nodeId: 'approve',
      title: 'Refund 120 € to Acme?',
      since: '2026-11-30T09:00:00.000Z',
      until: '2026-12-07T09:00:00.000Z',
      approvalId: approvalV1.approvalId,
    });
    // A decided run keeps its stored wait until the attempt that resumes it reads it.
    for (const status of ['pending', 'running', 'completed', 'cancelled'])
      expect(executionWait(status, approvalV1)).toBeNull();
    expect(executionWait('waiting', { ...approvalV1, v: 2 })).toBeNull();
  });
});
