import { describe, expect, it } from 'vitest';

import { parseSettingsTab, readMicrosoftReturn, searchForTab } from './settings-tabs';

describe('settings tabs', () => {
  it('opens the tab named in the URL, else Profile', () => {
    expect(parseSettingsTab('tools')).toBe('tools');
    expect(parseSettingsTab('Billing')).toBe('billing');
    expect(parseSettingsTab('api-keys')).toBe('api-keys');
    expect(parseSettingsTab('costs')).toBe('costs');
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
