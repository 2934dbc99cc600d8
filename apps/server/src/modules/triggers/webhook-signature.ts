import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@crewline/contracts';

/*
 * Signed webhook calls (docs/security.md, Webhook trigger): a workflow with `triggerConfig.signed` is called
 * with X-Crewline-Timestamp (unix seconds) and X-Crewline-Signature `v1=<hex HMAC-SHA256>` of
 * `<timestamp>.<raw body>`, keyed with the workflow's secret. The secret itself never travels, a
 * captured call stops working after the tolerance, and within it the replay store refuses it twice.
 */

/** The hex signature of a call: HMAC-SHA256(secret, `${timestamp}.${body}`), over the body's bytes. */
export function signWebhookCall(secret: string, timestamp: number | string, body: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

export type SignatureCheck =
  | { ok: true; signature: string; timestamp: number }
  | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

/**
 * Checks a signed call: the timestamp within the tolerance of `now` either way, and one of the header's
 * `v1=` signatures (several may be sent, comma-separated) equal to the expected one, compared in
 * constant time on the decoded bytes. Answers the matching signature (lowercase hex), the replay key.
 */
export function checkWebhookSignature(input: {
  secret: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Buffer;
  now: Date;
}): SignatureCheck {
  const { secret, timestamp, signature } = input;
  if (!secret || !timestamp || !signature) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp.trim())) return { ok: false, reason: 'malformed' };
  const seconds = Number(timestamp.trim());
  const nowSeconds = Math.floor(input.now.getTime() / 1000);
  if (Math.abs(nowSeconds - seconds) > WEBHOOK_SIGNATURE_TOLERANCE_SECONDS)
    return { ok: false, reason: 'stale' };

  const expected = Buffer.from(signWebhookCall(secret, timestamp.trim(), input.body), 'hex');
  const given = signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1='))
    .map((part) => part.slice(3).toLowerCase())
    .filter((hex) => /^[0-9a-f]{64}$/.test(hex));
  if (given.length === 0) return { ok: false, reason: 'malformed' };
  // Every candidate is compared, so the time taken does not say which one (if any) matched.
  let match: string | undefined;
  for (const hex of given) {
    if (timingSafeEqual(Buffer.from(hex, 'hex'), expected) && !match) match = hex;
  }
  return match ? { ok: true, signature: match, timestamp: seconds } : { ok: false, reason: 'mismatch' };
}
