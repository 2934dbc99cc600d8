import { describe, expect, it } from 'vitest';
import { WEBHOOK_SECRET_MASK } from '@crewline/contracts';
import { createSecretBox } from '../../platform/crypto';
import { formToObject, webhookInput } from './webhook.routes';
import {
  createWebhookSecrets,
  generateWebhookSecret,
  webhookSecretMatches,
  withoutSecret,
} from '../workflows/webhook-secret';

const box = createSecretBox(Buffer.alloc(32, 3));
const secrets = createWebhookSecrets(box);
const org = '11111111-1111-4111-8111-111111111111';

describe('webhook secrets', () => {
  it('generates 43 URL-safe characters, different each time', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('matches only the same secret, whatever the lengths', () => {
    expect(webhookSecretMatches('abc', 'abc')).toBe(true);
    expect(webhookSecretMatches('abc', 'abcd')).toBe(false);
    expect(webhookSecretMatches('', 'abc')).toBe(false);
    expect(webhookSecretMatches(undefined, 'abc')).toBe(false);
    expect(webhookSecretMatches('abc', undefined)).toBe(false);
  });

  it('seals a typed secret, keeps the stored one for the mask or nothing, moves a plaintext one, generates one', () => {
    const stored = secrets.seal(org, 'kept');
    const open = (sealed: string | null) => secrets.open(org, { sealed });
    expect(open(secrets.sealedForSave(org, 'webhook', { secret: 'typed' }, { sealed: stored }))).toBe(
      'typed',
    );
    expect(secrets.sealedForSave(org, 'webhook', { secret: WEBHOOK_SECRET_MASK }, { sealed: stored })).toBe(
      stored,
    );
    expect(secrets.sealedForSave(org, 'webhook', { secret: ' ' }, { sealed: stored })).toBe(stored);
    expect(secrets.sealedForSave(org, 'webhook', undefined, { sealed: stored })).toBe(stored);
    expect(open(secrets.sealedForSave(org, 'webhook', {}, { sealed: null, legacy: 'old' }))).toBe('old');
    expect(
      open(secrets.sealedForSave(org, 'webhook', {}, { sealed: null, legacy: WEBHOOK_SECRET_MASK })),
    ).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secrets.sealedForSave(org, 'manual', { secret: 'typed' }, { sealed: stored })).toBeNull();
    expect(withoutSecret({ secret: 'x', cron: '* * * * *' })).toEqual({ cron: '* * * * *' });
  });

  it('binds the sealed secret to its organization', () => {
    const sealed = secrets.seal(org, 'mine');
    expect(() => secrets.open('22222222-2222-4222-8222-222222222222', { sealed })).toThrow();
  });
});

describe('webhook bodies', () => {
  it('keeps a JSON object as the input and wraps anything else as payload', () => {
    expect(webhookInput({ a: 1 })).toEqual({ a: 1 });
    expect(webhookInput([1])).toEqual({ payload: [1] });
    expect(webhookInput(null)).toEqual({ payload: null });
    expect(webhookInput('text')).toEqual({ payload: 'text' });
    expect(webhookInput(undefined)).toEqual({});
  });

  it('reads a form into an object, repeated fields as lists, __proto__ as a plain name', () => {
    const form = formToObject('a=1&b=x&b=y&b=z&__proto__=p&sp=a+b%20c');
    expect({ ...form }).toEqual({ a: '1', b: ['x', 'y', 'z'], ['__proto__']: 'p', sp: 'a b c' });
    expect(Object.getPrototypeOf(form)).toBeNull();
  });
});
