import { describe, expect, it } from 'vitest';

import { activityTitle } from './activity-texts';

describe('activityTitle', () => {
  it('says what happened to a run', () => {
    const run = { kind: 'execution' as const, title: 'Research crew' };
    expect(activityTitle({ ...run, status: 'completed' })).toBe('Execution of Research crew completed');
    expect(activityTitle({ ...run, status: 'failed' })).toBe('Execution of Research crew failed');
    expect(activityTitle({ ...run, status: 'running' })).toBe('Execution of Research crew started');
    expect(activityTitle({ ...run, status: 'pending' })).toBe('Execution of Research crew queued');
    expect(activityTitle({ ...run, status: 'cancelled' })).toBe('Execution of Research crew cancelled');
    expect(activityTitle({ ...run, status: 'paused' })).toBe('Execution of Research crew paused');
    expect(activityTitle({ ...run, status: null })).toBe('Execution of Research crew');
    expect(activityTitle({ kind: 'execution', title: '', status: 'completed' })).toBe(
      'Execution of Unknown Workflow completed',
    );
  });

  it('keeps agent and workflow names as they are', () => {
    expect(activityTitle({ kind: 'agent_created', title: 'Ada', status: 'active' })).toBe('Ada');
    expect(activityTitle({ kind: 'workflow_updated', title: 'Flow', status: 'draft' })).toBe('Flow');
  });
});
