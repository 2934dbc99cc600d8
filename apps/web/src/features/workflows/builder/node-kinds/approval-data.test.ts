import { describe, expect, it } from 'vitest';

import { approvalDraftOf, approvalPaths, deciderModeOf, policyWords } from './approval-data';
import { shortDuration, unitOf } from './duration';

describe('an approval’s data as the builder reads it', () => {
  it('keeps every field it can read while one of them does not pass the schema yet', () => {
    const draft = approvalDraftOf({
      title: 'Ship?',
      policy: { quorum: 0 },
      fields: [{ name: '2nd', label: 'Half typed', type: 'choice', options: ['A'] }, 'junk'],
      timeout: { seconds: 120, onTimeout: 'branch' },
    });
    expect(draft).toEqual({
      title: 'Ship?',
      message: '',
      policy: { quorum: 0 },
      fields: [
        { name: '2nd', label: 'Half typed', type: 'choice', options: ['A'] },
        { name: '', label: '', type: 'text' },
      ],
      timeout: { seconds: 120, onTimeout: 'branch' },
    });
    expect(approvalPaths(draft)).toEqual(['approved', 'rejected', 'timeout']);
    expect(approvalPaths(approvalDraftOf({}))).toEqual(['approved', 'rejected']);
  });

  it('says who decides by what is set: named members (even none yet), roles, else any member', () => {
    expect(deciderModeOf(undefined)).toBe('any');
    expect(deciderModeOf({})).toBe('any');
    expect(deciderModeOf({ userIds: [] })).toBe('named');
    expect(deciderModeOf({ roles: ['admin'] })).toBe('roles');
  });

  it('words the policy as the canvas shows it', () => {
    expect(policyWords('first')).toBe('First decision wins');
    expect(policyWords('all')).toBe('All must approve');
    expect(policyWords({ quorum: 2 })).toBe('Quorum of 2');
  });
});

describe('durations', () => {
  it('picks the largest unit that says the seconds exactly, and says them short', () => {
    expect(unitOf(7200, ['minutes', 'hours', 'days'])).toBe('hours');
    expect(unitOf(5400, ['minutes', 'hours', 'days'])).toBe('minutes');
    expect(unitOf(30, ['minutes', 'hours', 'days'])).toBe('minutes');
    expect(unitOf(172800, ['seconds', 'minutes', 'hours', 'days'])).toBe('days');
    expect([7200, 5400, 86400, 45].map(shortDuration)).toEqual(['2 h', '90 min', '1 d', '45 s']);
  });
});
