import { describe, expect, it } from 'vitest';

import {
  billingStatus,
  parseSettingsTab,
  planLabel,
  readMicrosoftReturn,
  searchForTab,
} from './settings-tabs';

describe('settings tabs', () => {
  it('opens the tab named in the URL, else Profile', () => {
    expect(parseSettingsTab('tools')).toBe('tools');
    expect(parseSettingsTab('Billing')).toBe('billing');
    expect(parseSettingsTab('nope')).toBe('profile');
    expect(parseSettingsTab(null)).toBe('profile');
  });

  it('writes the tab into the query string, none for Profile', () => {
    const current = new URLSearchParams('tab=tools&x=1');
    expect(searchForTab(current, 'billing').toString()).toBe('tab=billing&x=1');
    expect(searchForTab(current, 'profile').toString()).toBe('x=1');
  });

  it('reads and strips the Microsoft return parameters', () => {
    expect(readMicrosoftReturn(new URLSearchParams('tab=tools'))).toBeNull();
    const back = readMicrosoftReturn(new URLSearchParams('tab=tools&microsoft_error=true'));
    expect(back?.outcome).toBe('error');
    expect(back?.rest.toString()).toBe('tab=tools');
    expect(readMicrosoftReturn(new URLSearchParams('microsoft_connected=true'))?.outcome).toBe('connected');
  });
});

describe('billing', () => {
  const now = Date.parse('2026-03-01T00:00:00Z');
  it('tells a running trial from an ended one and from a plain plan', () => {
    expect(billingStatus({ plan: 'professional', trialEndsAt: '2026-03-10T00:00:00Z' }, now).kind).toBe(
      'trialing',
    );
    expect(billingStatus({ plan: 'professional', trialEndsAt: '2026-02-10T00:00:00Z' }, now).kind).toBe(
      'trial_ended',
    );
    expect(billingStatus({ plan: 'starter', trialEndsAt: null }, now)).toEqual({
      kind: 'plan',
      trialEnd: null,
    });
    expect(planLabel('starter')).toBe('Starter');
  });
});
