import { describe, expect, it } from 'vitest';

import { restoreDescription, restoredToast, versionAuthor, versionNoteHint } from './history-texts';

describe('restore wording', () => {
  it('tells the owner of an active workflow that new runs use it and a version is recorded', () => {
    const text = restoreDescription(1, 'active');
    expect(text).toContain('version 1');
    expect(text).toContain('new runs use it right away');
    expect(text).toContain('"Restored from version 1"');
    expect(text).toContain('unsaved changes here are discarded');
    expect(restoredToast(1, 'Digest', 'active').description).toContain('recorded as a new version');
  });

  it('tells the owner of a draft or paused workflow that nothing is recorded until activated', () => {
    expect(restoreDescription(2, 'draft')).toContain('stays a draft, so no new version is recorded');
    expect(restoreDescription(2, 'paused')).toContain('stays paused');
    expect(restoreDescription(2, 'paused')).not.toContain('Restored from');
    expect(restoredToast(2, 'Digest', 'paused')).toEqual({
      title: 'Version 2 Restored',
      description: '"Digest" is back to version 2. Activate it to record a version.',
    });
  });

  it('says where the note goes, and who saved a version even when the user is gone', () => {
    expect(versionNoteHint('active')).toContain('this save records');
    expect(versionNoteHint('draft')).toContain('Activate');
    expect(versionAuthor({ createdBy: null })).toBe('Unknown user');
    expect(versionAuthor({ createdBy: { id: 'u1', name: 'Eve Tester' } })).toBe('Eve Tester');
  });
});
