import type { ApprovalField } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  answersOf,
  approvalStepData,
  assigneesText,
  decisionErrorOf,
  deciderName,
  draftErrors,
  outcomeText,
  policyText,
} from './approval-texts';

const fields: ApprovalField[] = [
  { name: 'amount', label: 'Amount', type: 'number', required: true },
  { name: 'reason', label: 'Reason', type: 'choice', options: ['damaged', 'late'] },
  { name: 'notify', label: 'Tell the customer', type: 'boolean' },
  { name: 'note', label: '', type: 'text' },
];

const ada = { userId: 'u1', username: 'ada', firstName: 'Ada', lastName: 'Lovelace' };
const grace = { userId: 'u2', username: 'grace', firstName: null, lastName: null };

describe('the approval texts', () => {
  it('says the policy in words', () => {
    expect(policyText('first')).toBe('First decision wins');
    expect(policyText('all')).toBe('All must approve');
    expect(policyText({ quorum: 2 })).toBe('Quorum of 2');
  });

  it('names who may decide: anyone, the named members by name (else counted) and the roles', () => {
    expect(assigneesText({})).toBe('any member');
    expect(assigneesText({ roles: ['admin'] })).toBe('admins');
    expect(assigneesText({ userIds: ['u1', 'u2'], roles: ['owner'] }, [ada, grace])).toBe(
      'Ada Lovelace, grace or owners',
    );
    expect(assigneesText({ userIds: ['u1', 'u9'] }, [ada])).toBe('2 named members');
    expect(assigneesText({ userIds: ['u1'] })).toBe('1 named member');
  });

  it('names who decided: the approval’s name, else the member’s, else Someone', () => {
    expect(deciderName({ userId: 'u1', userName: 'Ada L.' }, [ada])).toBe('Ada L.');
    expect(deciderName({ userId: 'u1' }, [ada])).toBe('Ada Lovelace');
    expect(deciderName({ userId: 'u7' })).toBe('Someone');
  });

  it('turns the form into answers: numbers as numbers, empty fields left out, yes/no as booleans', () => {
    expect(answersOf(fields, { amount: ' 620.5 ', reason: 'late', notify: false, note: '' })).toEqual({
      amount: 620.5,
      reason: 'late',
      notify: false,
    });
    // Text that is no number goes as typed, so the check names it.
    expect(answersOf(fields, { amount: 'lots' })).toEqual({ amount: 'lots' });
  });

  it('checks the form before sending: an approval needs the required fields, a rejection does not', () => {
    expect(draftErrors(fields, {}, 'approve')).toEqual({ amount: 'Amount is required' });
    expect(draftErrors(fields, {}, 'reject')).toEqual({});
    expect(draftErrors(fields, { amount: 'lots' }, 'reject')).toEqual({ amount: 'Amount must be a number' });
  });

  it('reads a refusal: the message of a 409 or 403, a 400’s field messages, a fallback for the rest', () => {
    expect(decisionErrorOf(new Error('409: {"message":"This approval was already decided"}'))).toEqual({
      message: 'This approval was already decided',
      fields: {},
    });
    expect(
      decisionErrorOf(new Error('400: {"message":"Invalid","errors":{"amount":"Amount is required"}}')),
    ).toEqual({ message: 'Invalid', fields: { amount: 'Amount is required' } });
    expect(
      decisionErrorOf(new Error('400: {"errors":[{"path":"fields.amount","message":"Too big"}]}')),
    ).toEqual({ message: null, fields: { amount: 'Too big' } });
    expect(decisionErrorOf(new Error('502: <html>bad gateway</html>'), 'Try again')).toEqual({
      message: 'Try again',
      fields: {},
    });
    expect(decisionErrorOf(new TypeError('Failed to fetch'), 'Try again').message).toBe('Try again');
  });

  it('says the outcome: mine, and the approval’s status once closed', () => {
    expect(outcomeText({ status: 'approved' }, 'approve')).toBe('You approved · Approved');
    expect(outcomeText({ status: 'pending' }, 'approve')).toBe(
      'You approved · waiting for the other approvers',
    );
    expect(outcomeText({ status: 'rejected' }, 'reject')).toBe('You rejected · Rejected');
  });

  it('reads an approval step’s data, keeping only well-formed decisions', () => {
    expect(
      approvalStepData({
        decision: 'approved',
        decisions: [
          {
            userId: 'u1',
            decision: 'approve',
            comment: '',
            fields: { amount: 5, x: {} },
            at: 't',
            via: 'inbox',
          },
          { userId: 'u2', decision: 'maybe' },
          'nonsense',
        ],
        fields: { amount: 5 },
      }),
    ).toEqual({
      decision: 'approved',
      decisions: [
        {
          userId: 'u1',
          userName: null,
          decision: 'approve',
          comment: null,
          fields: { amount: 5 },
          at: 't',
          via: 'inbox',
        },
      ],
      fields: { amount: 5 },
    });
    expect(approvalStepData({ decision: 'timeout', decisions: [] })?.decision).toBe('timeout');
    expect(approvalStepData({ branch: 'x' })).toBeNull();
    expect(approvalStepData(null)).toBeNull();
  });
});
