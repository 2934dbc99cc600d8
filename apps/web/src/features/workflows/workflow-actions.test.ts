import { describe, expect, it } from 'vitest';

import { activatedToast, deleteConfirmationText, pauseMenuAction, primaryAction } from './workflow-actions';

describe('workflow actions', () => {
  it('offers Execute only where the server runs it, Resume on a paused workflow, else Activate', () => {
    const statuses = ['draft', 'active', 'paused', 'completed', 'failed'];
    expect(statuses.map((status) => [status, primaryAction(status)])).toEqual([
      ['draft', 'activate'],
      ['active', 'execute'],
      ['paused', 'resume'],
      ['completed', 'activate'],
      ['failed', 'activate'],
    ]);
    expect(statuses.map((status) => [status, pauseMenuAction(status)])).toEqual([
      ['draft', null],
      ['active', 'pause'],
      ['paused', 'resume'],
      ['completed', null],
      ['failed', null],
    ]);
  });

  it('words the delete confirmation and the activation toast with the workflow name', () => {
    expect(deleteConfirmationText('Flow')).toBe(
      'Are you sure you want to delete "Flow"? This action cannot be undone and will remove all associated executions.',
    );
    expect(activatedToast('Flow')).toEqual({
      title: 'Workflow Activated',
      description: '"Flow" is now active and ready to execute',
    });
  });
});
