import { describe, expect, it } from 'vitest';

import {
  apiKeyExpiry,
  canManageApiKeys,
  createApiKeyBody,
  createApiKeyFormSchema,
  createdByLabel,
  curlExample,
  endOfLocalDay,
  EXPIRY_CHOICES,
  expiryChoiceSchema,
  expiryToIso,
  hasApiAccess,
  lastUsedLabel,
  maskedKey,
  minCustomExpiryDate,
  toDateInputValue,
} from './api-keys';

// Local noon, 10 March 2025: far from any midnight in every time zone the tests run in.
const now = new Date(2025, 2, 10, 12, 0, 0).getTime();
const DAY = 24 * 60 * 60 * 1000;

describe('expiry of a new key', () => {
  it('offers Never, 30 days, 90 days, 1 year and a custom date, all of them known to the form', () => {
    expect(EXPIRY_CHOICES.map((c) => c.label)).toEqual([
      'Never',
      '30 days',
      '90 days',
      '1 year',
      'Custom date',
    ]);
    expect(EXPIRY_CHOICES.map((c) => c.value)).toEqual(expiryChoiceSchema.options);
  });

  it('turns a preset into the ISO time that many days from now, Never into null', () => {
    expect(expiryToIso('never', '', now)).toBeNull();
    expect(expiryToIso('30d', '', now)).toBe(new Date(now + 30 * DAY).toISOString());
    expect(expiryToIso('90d', '', now)).toBe(new Date(now + 90 * DAY).toISOString());
    expect(expiryToIso('1y', '', now)).toBe(new Date(now + 365 * DAY).toISOString());
    // A custom date typed earlier is ignored by a preset.
    expect(expiryToIso('30d', '2030-01-01', now)).toBe(new Date(now + 30 * DAY).toISOString());
  });

  it('lets a key with a custom date work through the end of that day, local time', () => {
    expect(expiryToIso('custom', '2025-04-01', now)).toBe(
      new Date(2025, 3, 1, 23, 59, 59, 999).toISOString(),
    );
    expect(endOfLocalDay('2025-02-31')).toBeNull();
    expect(endOfLocalDay('01/04/2025')).toBeNull();
    expect(expiryToIso('custom', '', now)).toBeNull();
  });

  it('starts the custom date at tomorrow', () => {
    expect(minCustomExpiryDate(now)).toBe('2025-03-11');
    expect(minCustomExpiryDate(new Date(2025, 11, 31, 12).getTime())).toBe('2026-01-01');
    expect(toDateInputValue(new Date(2025, 0, 5))).toBe('2025-01-05');
  });
});

describe('the Create key form', () => {
  const schema = createApiKeyFormSchema(() => now);
  const issues = (values: object) => {
    const result = schema.safeParse({ name: 'CI', expiry: 'never', customDate: '', ...values });
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]));
  };

  it('needs a name', () => {
    expect(issues({ name: '  ' })).toEqual({ name: 'Name is required' });
    expect(issues({})).toEqual({});
  });

  it('needs a custom date after today only when Custom date is chosen', () => {
    expect(issues({ expiry: 'custom' })).toEqual({ customDate: 'Choose the day the key expires' });
    expect(issues({ expiry: 'custom', customDate: '2025-03-10' })).toEqual({
      customDate: 'Choose a day after today',
    });
    expect(issues({ expiry: 'custom', customDate: '2024-12-31' })).toEqual({
      customDate: 'Choose a day after today',
    });
    expect(issues({ expiry: 'custom', customDate: '2025-03-11' })).toEqual({});
    expect(issues({ expiry: '90d', customDate: '2020-01-01' })).toEqual({});
  });

  it('sends the trimmed name and the expiry', () => {
    expect(createApiKeyBody({ name: ' CI pipeline ', expiry: 'never', customDate: '' }, now)).toEqual({
      name: 'CI pipeline',
      expiresAt: null,
    });
    expect(createApiKeyBody({ name: 'CI', expiry: '30d', customDate: '' }, now).expiresAt).toBe(
      new Date(now + 30 * DAY).toISOString(),
    );
  });
});

describe('who manages keys, and on which plans', () => {
  it('is owners and admins', () => {
    expect(canManageApiKeys('owner')).toBe(true);
    expect(canManageApiKeys('admin')).toBe(true);
    expect(canManageApiKeys('member')).toBe(false);
    expect(canManageApiKeys(undefined)).toBe(false);
  });

  it('includes API access in every trial, on Professional and Enterprise, not on Starter or Free', () => {
    expect(hasApiAccess({ status: 'trialing', plan: 'starter' })).toBe(true);
    expect(hasApiAccess({ status: 'active', plan: 'professional' })).toBe(true);
    expect(hasApiAccess({ status: 'past_due', plan: 'enterprise' })).toBe(true);
    expect(hasApiAccess({ status: 'active', plan: 'starter' })).toBe(false);
    expect(hasApiAccess({ status: 'no_subscription', plan: null })).toBe(false);
    // Not known yet: no warning.
    expect(hasApiAccess(undefined)).toBe(true);
  });
});

describe('a key in the list', () => {
  const date = (iso: string) => `on ${iso.slice(0, 10)}`;

  it('shows its first characters only', () => {
    expect(maskedKey('crw_abcd1234')).toBe('crw_abcd1234…');
  });

  it('says Never, the date (soon within a week), or Expired once past', () => {
    expect(apiKeyExpiry({ expiresAt: null }, now, date)).toEqual({ state: 'never', label: 'Never' });
    const later = new Date(now + 30 * DAY).toISOString();
    expect(apiKeyExpiry({ expiresAt: later }, now, date)).toEqual({
      state: 'active',
      label: date(later),
      at: later,
    });
    const soon = new Date(now + 3 * DAY).toISOString();
    expect(apiKeyExpiry({ expiresAt: soon }, now, date).state).toBe('soon');
    const past = new Date(now - 1000).toISOString();
    expect(apiKeyExpiry({ expiresAt: past }, now, date)).toEqual({
      state: 'expired',
      label: 'Expired',
      at: past,
    });
  });

  it('says Never used until a call is made with it', () => {
    expect(lastUsedLabel({ lastUsedAt: null }, () => 'x')).toBe('Never used');
    expect(lastUsedLabel({ lastUsedAt: '2025-03-10T11:00:00Z' }, () => '1 hour ago')).toBe('1 hour ago');
  });

  it('names its creator', () => {
    expect(createdByLabel({ createdBy: { id: 'u1', name: 'Ada Lovelace' } })).toBe('Ada Lovelace');
    expect(createdByLabel({ createdBy: null })).toBe('Deleted user');
  });
});

describe('the curl example', () => {
  it('calls the workflows with the key from this origin', () => {
    expect(curlExample('https://crewline.example', 'crw_secret')).toBe(
      'curl -H "Authorization: Bearer crw_secret" https://crewline.example/api/workflows',
    );
    expect(curlExample('http://127.0.0.1:5000/', 'crw_x')).toBe(
      'curl -H "Authorization: Bearer crw_x" http://127.0.0.1:5000/api/workflows',
    );
  });
});
