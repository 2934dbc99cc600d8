// Settings → API keys: the expiry choices of a new key, what the list says about each key, and the
// curl example shown with a new key (docs/security.md, API keys). Pure, so it is unit-tested without a
// browser (api-keys.test.ts); the server checks everything again.
import {
  API_ACCESS_PLANS,
  API_KEY_PREFIX,
  createApiKeySchema,
  type ApiKey,
  type CreateApiKeyInput,
  type SubscriptionStatusResponse,
} from '@crewline/contracts';
import { z } from 'zod';

const DAY_MS = 24 * 60 * 60 * 1000;

export const expiryChoiceSchema = z.enum(['never', '30d', '90d', '1y', 'custom']);
export type ExpiryChoice = z.infer<typeof expiryChoiceSchema>;

/** The Expiry select, in order; `days` counts from now (null: Never, or the custom date). */
export const EXPIRY_CHOICES: readonly { value: ExpiryChoice; label: string; days: number | null }[] = [
  { value: 'never', label: 'Never', days: null },
  { value: '30d', label: '30 days', days: 30 },
  { value: '90d', label: '90 days', days: 90 },
  { value: '1y', label: '1 year', days: 365 },
  { value: 'custom', label: 'Custom date', days: null },
];

const DEFAULT_EXPIRY: ExpiryChoice = '90d';

/** The header a program sends, as the docs and the tab show it. */
export const API_KEY_HEADER_EXAMPLE = `Authorization: Bearer ${API_KEY_PREFIX}…`;

/** Where the API key guide lives (the docs pages). */
export const API_KEYS_DOCS_PATH = '/docs/api-keys';

export const COPY_KEY_WARNING = 'Copy this key now. You will not be able to see it again.';

/** A `yyyy-mm-dd` date (an `<input type="date">` value) in local time. */
export function toDateInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The first day a custom expiry may be (tomorrow), as the date input's `min`. */
export function minCustomExpiryDate(now: number): string {
  const today = new Date(now);
  return toDateInputValue(new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1));
}

/** The end of a `yyyy-mm-dd` day in local time (the key works through that day), or null when invalid. */
export function endOfLocalDay(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day, 23, 59, 59, 999);
  // new Date() rolls 2025-02-31 over to March: such a date is not a date.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/**
 * When a key made now with this choice stops working: null for Never (and for a custom date that is
 * missing or invalid), else the instant. A preset counts whole days from now; a custom date lasts
 * through the end of that day.
 */
export function expiryDate(choice: ExpiryChoice, customDate: string, now: number): Date | null {
  if (choice === 'never') return null;
  if (choice === 'custom') return endOfLocalDay(customDate);
  const days = EXPIRY_CHOICES.find((c) => c.value === choice)?.days ?? null;
  return days === null ? null : new Date(now + days * DAY_MS);
}

/** The same, as the ISO time POST /api/organizations/:orgId/api-keys takes (null: never expires). */
export function expiryToIso(choice: ExpiryChoice, customDate: string, now: number): string | null {
  return expiryDate(choice, customDate, now)?.toISOString() ?? null;
}

/** The Create key form: a name and an expiry (a custom date must be a day after today). */
export function createApiKeyFormSchema(now: () => number = Date.now) {
  return z
    .object({
      name: createApiKeySchema.shape.name,
      expiry: expiryChoiceSchema,
      customDate: z.string(),
    })
    .superRefine((values, ctx) => {
      if (values.expiry !== 'custom') return;
      const date = endOfLocalDay(values.customDate);
      if (!values.customDate.trim() || !date) {
        ctx.addIssue({ code: 'custom', path: ['customDate'], message: 'Choose the day the key expires' });
      } else if (date.getTime() <= now() || values.customDate < minCustomExpiryDate(now())) {
        ctx.addIssue({ code: 'custom', path: ['customDate'], message: 'Choose a day after today' });
      }
    });
}

export type CreateApiKeyFormValues = z.input<ReturnType<typeof createApiKeyFormSchema>>;

export const emptyCreateApiKeyForm: CreateApiKeyFormValues = {
  name: '',
  expiry: DEFAULT_EXPIRY,
  customDate: '',
};

/** The body of the create request; a preset expiry counts from `now` (the moment it is sent). */
export function createApiKeyBody(
  values: CreateApiKeyFormValues,
  now: number = Date.now(),
): CreateApiKeyInput {
  return {
    name: values.name.trim(),
    expiresAt: expiryToIso(values.expiry, values.customDate, now),
  };
}

/** Owners and admins manage keys; members see the list's explanation only. */
export function canManageApiKeys(role: string | null | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Whether the plan includes API access (as the server's check): every trial, else Professional and
 * Enterprise. Unknown (still loading) counts as included, so no warning flashes.
 */
export function hasApiAccess(
  subscription: Pick<SubscriptionStatusResponse, 'status' | 'plan'> | null | undefined,
): boolean {
  if (!subscription) return true;
  if (subscription.status === 'trialing') return true;
  return !!subscription.plan && API_ACCESS_PLANS.includes(subscription.plan);
}

/** What the list shows of a key: its first characters and an ellipsis ('crw_abcd1234…'). */
export function maskedKey(prefix: string): string {
  return `${prefix}…`;
}

export type ApiKeyExpiry =
  | { state: 'never'; label: 'Never' }
  | { state: 'active' | 'soon'; label: string; at: string }
  | { state: 'expired'; label: 'Expired'; at: string };

/** Days before its expiry when a key is shown as expiring soon. */
const EXPIRING_SOON_DAYS = 7;

/**
 * The Expires column: 'Never'; 'Expired' once past (the key answers 401 and stays listed until
 * revoked); else the date, flagged `soon` within EXPIRING_SOON_DAYS.
 */
export function apiKeyExpiry(
  key: Pick<ApiKey, 'expiresAt'>,
  now: number,
  formatDate: (iso: string) => string,
): ApiKeyExpiry {
  if (!key.expiresAt) return { state: 'never', label: 'Never' };
  const at = new Date(key.expiresAt).getTime();
  if (Number.isNaN(at)) return { state: 'never', label: 'Never' };
  if (at <= now) return { state: 'expired', label: 'Expired', at: key.expiresAt };
  const state = at - now <= EXPIRING_SOON_DAYS * DAY_MS ? 'soon' : 'active';
  return { state, label: formatDate(key.expiresAt), at: key.expiresAt };
}

/** The Last used column: 'Never used', else how long ago. */
export function lastUsedLabel(
  key: Pick<ApiKey, 'lastUsedAt'>,
  formatRelative: (iso: string) => string,
): string {
  return key.lastUsedAt ? formatRelative(key.lastUsedAt) : 'Never used';
}

/** Who made the key ('Deleted user' when the creator's account is gone). */
export function createdByLabel(key: Pick<ApiKey, 'createdBy'>): string {
  return key.createdBy?.name || 'Deleted user';
}

/** A ready-to-paste call with a new key: the organization's workflows. */
export function curlExample(origin: string, key: string): string {
  return `curl -H "Authorization: Bearer ${key}" ${origin.replace(/\/+$/, '')}/api/workflows`;
}
