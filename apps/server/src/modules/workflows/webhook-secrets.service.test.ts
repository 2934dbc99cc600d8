import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../platform/crypto';
import { systemActor } from '../../platform/request-actor';
import { createWebhookSecrets } from './webhook-secret';
import { createWebhookSecretsService } from './webhook-secrets.service';

type Repository = Parameters<typeof createWebhookSecretsService>[0]['repository'];

const org = '11111111-1111-4111-8111-111111111111';
const other = '22222222-2222-4222-8222-222222222222';
const id = '33333333-3333-4333-8333-333333333333';
const secrets = createWebhookSecrets(createSecretBox(Buffer.alloc(32, 5)));

type Row = { organizationId: string; triggerType: string; sealed: string | null; legacy?: string };

function service(row: Row | undefined) {
  const writes: string[] = [];
  const repository = {
    findForWebhook: async (wanted: string) =>
      row && wanted === id
        ? {
            id,
            status: 'active' as const,
            signed: false,
            legacy: undefined,
            ...row,
            triggerType: row.triggerType as 'webhook',
          }
        : undefined,
    setWebhookSecret: async (_organizationId: string, _id: string, sealed: string) => {
      writes.push(sealed);
      if (row) row.sealed = sealed;
      return true;
    },
  } as Repository;
  return {
    writes,
    webhooks: createWebhookSecretsService({
      config: { publicUrl: 'https://crewline.test' },
      repository,
      secrets,
    }),
  };
}

describe('webhook secrets service', () => {
  it('reveals the sealed secret with the URL, writing nothing', async () => {
    const { webhooks, writes } = service({
      organizationId: org,
      triggerType: 'webhook',
      sealed: secrets.seal(org, 's3cret'),
    });
    expect(await webhooks.reveal(org, id, systemActor)).toEqual({
      secret: 's3cret',
      url: `https://crewline.test/api/webhooks/${id}`,
    });
    expect(writes).toEqual([]);
  });

  it('seals a legacy plaintext secret on reveal, and rotates to a new one', async () => {
    const row: Row = { organizationId: org, triggerType: 'webhook', sealed: null, legacy: 'old-plain' };
    const { webhooks, writes } = service(row);
    expect((await webhooks.reveal(org, id, systemActor)).secret).toBe('old-plain');
    expect(writes).toHaveLength(1);
    const rotated = await webhooks.rotate(org, id, systemActor);
    expect(rotated.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secrets.open(org, row)).toBe(rotated.secret);
  });

  it("answers another organization's workflow 404 and another trigger 409", async () => {
    await expect(
      service({ organizationId: org, triggerType: 'webhook', sealed: null }).webhooks.reveal(
        other,
        id,
        systemActor,
      ),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      service({ organizationId: org, triggerType: 'manual', sealed: null }).webhooks.rotate(
        org,
        id,
        systemActor,
      ),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it('gives a call the workflow and the secret it must prove; a seal of another key proves nothing', async () => {
    const { webhooks } = service({
      organizationId: org,
      triggerType: 'webhook',
      sealed: secrets.seal(org, 'abc'),
    });
    const found = await webhooks.forCall(id);
    expect(found?.expected).toBe('abc');
    expect(webhooks.matches('abc', found?.expected)).toBe(true);
    expect(webhooks.matches('abd', found?.expected)).toBe(false);
    expect(await webhooks.forCall(other)).toBeUndefined();

    const foreign = createWebhookSecrets(createSecretBox(Buffer.alloc(32, 9))).seal(org, 'abc');
    const broken = await service({
      organizationId: org,
      triggerType: 'webhook',
      sealed: foreign,
    }).webhooks.forCall(id);
    expect(broken?.expected).toBeUndefined();
    expect(webhooks.matches('abc', broken?.expected)).toBe(false);
  });
});
