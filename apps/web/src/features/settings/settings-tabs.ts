// The tabs of Profile & Settings and the URL that opens one: /settings/profile?tab=api-keys.

export const SETTINGS_TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'billing', label: 'Billing' },
  { value: 'organization', label: 'Organization' },
  { value: 'tools', label: 'Tools' },
  { value: 'costs', label: 'Costs' },
  { value: 'api-keys', label: 'API keys' },
  // Owners only (the page leaves it out for other roles).
  { value: 'audit', label: 'Audit' },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number]['value'];

const DEFAULT_SETTINGS_TAB: SettingsTab = 'profile';

export function parseSettingsTab(value: string | null | undefined): SettingsTab {
  const tab = value?.trim().toLowerCase();
  return SETTINGS_TABS.some((t) => t.value === tab) ? (tab as SettingsTab) : DEFAULT_SETTINGS_TAB;
}

/** The query string for a tab: the default tab has none, the others `tab=<value>`; other parameters stay. */
export function searchForTab(current: URLSearchParams, tab: SettingsTab): URLSearchParams {
  const next = new URLSearchParams(current);
  if (tab === DEFAULT_SETTINGS_TAB) next.delete('tab');
  else next.set('tab', tab);
  return next;
}

/**
 * After the Microsoft sign-in the server sends the user back with microsoft_connected=true or
 * microsoft_error=true. Returns what to tell the user and the query string without
 * those parameters, or null when neither is present.
 */
export function readMicrosoftReturn(
  current: URLSearchParams,
): { outcome: 'connected' | 'error'; rest: URLSearchParams } | null {
  const connected = current.get('microsoft_connected') === 'true';
  const failed = current.get('microsoft_error') === 'true';
  if (!connected && !failed) return null;
  const rest = new URLSearchParams(current);
  rest.delete('microsoft_connected');
  rest.delete('microsoft_error');
  return { outcome: failed ? 'error' : 'connected', rest };
}
