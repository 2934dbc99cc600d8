import { describe, expect, it } from 'vitest';
import { describeCron, isValidCron, isValidTimezone, nextRunTimes, scheduleTimezone } from './schedule';
import { validateWorkflow, type WorkflowDraft } from './validation';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('isValidCron: standard 5-field expressions only', () => {
  it.each([
    '* * * * *',
    '0 9 * * 1-5',
    '0 9 * * MON-FRI',
    '0 9 * * mon,wed,fri',
    '*/15 * * * *',
    '0-30/10 8-18 * * *',
    '0 0 1,15 * *',
    '0 0 1 JAN *',
    '0 0 1 jan-mar *',
    '0 12 * * 7',
    '  30   8 * *  *  ',
  ])('accepts %j', (expression) => expect(isValidCron(expression)).toBe(true));

  it.each([
    undefined,
    '',
    '   ',
    'every day',
    '* * * *',
    '* * * * * *',
    '0 0 9 * * 1-5 2026',
    '@daily',
    '60 * * * *',
    '0 24 * * *',
    '0 0 32 * *',
    '0 0 * 13 *',
    '0 0 * * 8',
    '5-1 * * * *',
    '0 9 * * FOO',
    '0 9 * MON *',
    '0 9 * * JAN',
    '0 9 L * *',
    '0 9 ? * *',
    '0 9 * * 1#2',
    'H * * * *',
    '0 0 31 2 *',
    '*/ * * * *',
  ])('refuses %j', (expression) => expect(isValidCron(expression)).toBe(false));
});

describe('time zones', () => {
  it('knows IANA names through Intl and defaults to UTC', () => {
    expect(isValidTimezone('Europe/Paris')).toBe(true);
    expect(isValidTimezone('America/New_York')).toBe(true);
    expect(isValidTimezone('UTC')).toBe(true);
    expect(isValidTimezone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimezone('not a zone')).toBe(false);
    expect(scheduleTimezone(undefined)).toBe('UTC');
    expect(scheduleTimezone('  ')).toBe('UTC');
    expect(scheduleTimezone('Asia/Tokyo')).toBe('Asia/Tokyo');
  });

  const draft = (
    triggerConfig: WorkflowDraft['triggerConfig'],
    triggerType: WorkflowDraft['triggerType'] = 'schedule',
  ): WorkflowDraft => ({
    name: 'W',
    triggerType,
    triggerConfig,
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'end', type: 'end' },
    ],
    edges: [{ source: 'start', target: 'end' }],
  });

  it('validateWorkflow names an unknown zone of a schedule, and accepts a known or absent one', () => {
    expect(
      validateWorkflow(draft({ cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons' }), () => true).errors,
    ).toEqual([
      'Unknown time zone "Mars/Olympus_Mons": choose an IANA time zone such as UTC or Europe/Paris',
    ]);
    expect(
      validateWorkflow(draft({ cron: '0 9 * * *', timezone: 'Europe/Paris' }), () => true).errors,
    ).toEqual([]);
    expect(validateWorkflow(draft({ cron: '0 9 * * *' }), () => true).errors).toEqual([]);
    expect(validateWorkflow(draft({ cron: '0 9 * * * *' }), () => true).errors).toEqual([
      'Please enter a valid cron expression for scheduled workflows',
    ]);
    // Another trigger type ignores the schedule's fields.
    expect(validateWorkflow(draft({ cron: 'x', timezone: 'nowhere' }, 'manual'), () => true).errors).toEqual(
      [],
    );
  });
});

describe('nextRunTimes', () => {
  it('gives the next ticks strictly after the given time, in UTC by default', () => {
    expect(iso(nextRunTimes('*/15 * * * *', undefined, new Date('2026-05-04T10:15:00Z'), 3))).toEqual([
      '2026-05-04T10:30:00.000Z',
      '2026-05-04T10:45:00.000Z',
      '2026-05-04T11:00:00.000Z',
    ]);
    expect(iso(nextRunTimes('* * * * *', 'UTC', new Date('2026-05-04T10:15:00.500Z'), 1))).toEqual([
      '2026-05-04T10:16:00.000Z',
    ]);
  });

  it('reads the expression in the zone, across a daylight-saving change', () => {
    // New York moves from UTC-5 to UTC-4 on Sunday 8 March 2026: 09:00 local stays 09:00 local.
    expect(iso(nextRunTimes('0 9 * * *', 'America/New_York', new Date('2026-03-07T00:00:00Z'), 3))).toEqual([
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
    // Weekdays only, in Paris, across its change on Sunday 29 March 2026 (UTC+1 to UTC+2).
    expect(iso(nextRunTimes('0 9 * * 1-5', 'Europe/Paris', new Date('2026-03-26T12:00:00Z'), 3))).toEqual([
      '2026-03-27T08:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z',
    ]);
    // When New York's clocks go back on 1 November 2026, 01:30 happens twice; the schedule runs once.
    expect(iso(nextRunTimes('30 1 * * *', 'America/New_York', new Date('2026-10-31T12:00:00Z'), 2))).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('is empty for an invalid expression or zone', () => {
    expect(nextRunTimes('nope', 'UTC', new Date(), 3)).toEqual([]);
    expect(nextRunTimes('* * * * *', 'Nowhere/City', new Date(), 3)).toEqual([]);
  });
});

describe('describeCron', () => {
  it.each([
    ['* * * * *', 'Every minute'],
    ['*/1 * * * *', 'Every minute'],
    ['*/15 * * * *', 'Every 15 minutes'],
    ['0 * * * *', 'Every hour'],
    ['5 * * * *', 'Every hour at 5 minutes past'],
    ['0 */2 * * *', 'Every 2 hours'],
    ['30 8 * * *', 'Every day at 08:30'],
    ['0 9,17 * * *', 'Every day at 09:00 and 17:00'],
    ['0 9 * * 1-5', 'Every weekday at 09:00'],
    ['0 9 * * MON-FRI', 'Every weekday at 09:00'],
    ['0 10 * * 6,0', 'Every weekend day at 10:00'],
    ['0 7 * * 1,5', 'Every Monday and Friday at 07:00'],
    ['0 7 * * 5-7', 'Every Friday, Saturday and Sunday at 07:00'],
    ['0 7 * * sun', 'Every Sunday at 07:00'],
    ['0 0 1 * *', 'On day 1 of every month at 00:00'],
    ['0 0 1 JAN *', 'Every year on January 1 at 00:00'],
    ['*/5 9-17 * * 1-5', '*/5 9-17 * * 1-5'],
  ])('reads %j as %j', (expression, reading) => expect(describeCron(expression)).toBe(reading));

  it('gives null for an invalid expression', () => {
    expect(describeCron('0 9 * * * *')).toBeNull();
    expect(describeCron('')).toBeNull();
  });
});
