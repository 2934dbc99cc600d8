import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SECRET_MASK, type TriggerConfig, type Workflow } from '@crewline/contracts';
import type { SecretBox } from '../../platform/crypto';

/*
 * A webhook workflow's shared secret (docs/product-rules.md, Webhook trigger): sealed with the
 * organization's secret box into `workflows.webhook_secret`, never kept in trigger_config, shown only
 * as WEBHOOK_SECRET_MASK in answers and versions, and revealed on its own route to members.
 */

/** 32 random bytes as base64url: 43 URL-safe characters. */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether the secret a caller sent is the workflow's, in constant time: both sides are hashed first,
 * so neither the comparison nor its length says anything about the secret.
 */
export function webhookSecretMatches(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** A secret a save typed in: not the mask, not empty (both keep the stored one). */
function newSecretIn(config: TriggerConfig | undefined): string | undefined {
  const secret = config?.secret;
  if (typeof secret !== 'string') return undefined;
  const trimmed = secret.trim();
  return trimmed && trimmed !== WEBHOOK_SECRET_MASK ? trimmed : undefined;
}

/** The trigger configuration as stored: never with a secret. */
export function withoutSecret(config: Record<string, unknown>): TriggerConfig {
  const { secret: _secret, ...rest } = config as TriggerConfig;
  return rest;
}

/** What the workflow row holds about its secret before a save. */
export type StoredWebhookSecret = {
  /** The sealed secret (webhook_secret). */
  sealed: string | null;
  /** A plaintext secret saved in trigger_config before the sealed column existed. */
  legacy?: string;
};

/** A legacy plaintext secret worth keeping (a stored mask or an empty string is none). */
function usableLegacy(legacy: string | undefined): string | undefined {
  return legacy && legacy !== WEBHOOK_SECRET_MASK ? legacy : undefined;
}

/**
 * What a save does to the webhook secret, as the audit log records it (never the value): a random
 * one made (`generated`), one typed in (`set`), the one there dropped with the webhook trigger
 * (`removed`); null when the secret stays what it was (a plaintext one from before only sealed).
 */
export type WebhookSecretChange = 'generated' | 'set' | 'removed';

export function webhookSecretChange(
  triggerType: Workflow['triggerType'],
  config: TriggerConfig | undefined,
  stored: StoredWebhookSecret,
): WebhookSecretChange | null {
  const had = stored.sealed !== null || usableLegacy(stored.legacy) !== undefined;
  if (triggerType !== 'webhook') return had ? 'removed' : null;
  if (newSecretIn(config)) return 'set';
  return had ? null : 'generated';
}

export function createWebhookSecrets(box: SecretBox) {
  return {
    seal: (organizationId: string, secret: string) => box.encrypt(secret, organizationId),

    /** The plaintext of what a row holds (sealed, else legacy), or undefined when there is none. */
    open(organizationId: string, stored: StoredWebhookSecret): string | undefined {
      if (stored.sealed) return box.decrypt(stored.sealed, organizationId);
      return usableLegacy(stored.legacy);
    },

    /**
     * The sealed secret a save leaves on the workflow: for a webhook workflow a new secret when the
     * save typed one, else the stored one (a legacy plaintext one sealed now), else a generated one;
     * for any other trigger none.
     */
    sealedForSave(
      organizationId: string,
      triggerType: Workflow['triggerType'],
      config: TriggerConfig | undefined,
      stored: StoredWebhookSecret,
    ): string | null {
      if (triggerType !== 'webhook') return null;
      const typed = newSecretIn(config);
      if (typed) return box.encrypt(typed, organizationId);
      if (stored.sealed) return stored.sealed;
      return box.encrypt(usableLegacy(stored.legacy) ?? generateWebhookSecret(), organizationId);
    },
  };
}
export type WebhookSecrets = ReturnType<typeof createWebhookSecrets>;
