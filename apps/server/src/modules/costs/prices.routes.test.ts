import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_PRICES_MAX, type AuthResponse, type ModelPrice } from '@crewline/contracts';
import { modelPrices } from '@crewline/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { joinOrganization } from '../../testing/app-fixtures';

// Settings → Costs: the price table in force for the caller's organization (the built-in one with the
// organization's own prices over it), read by any member, changed by admins and owners.

let t: TestApp;
let owner: AuthResponse;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(() => t?.close());

const URL = '/api/prices';
const today = () => new Date().toISOString().slice(0, 10);
const list = async (auth: AuthResponse): Promise<ModelPrice[]> => {
  const res = await t.request({ method: 'GET', url: URL, token: auth.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const priceOf = async (auth: AuthResponse, provider: string, model: string) =>
  (await list(auth)).find((p) => p.provider === provider && p.model === model);
const put = (auth: AuthResponse, payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: URL, token: auth.token, payload });
const remove = (auth: AuthResponse, provider: string, model: string) =>
  t.request({
    method: 'DELETE',
    url: `${URL}/${encodeURIComponent(provider)}/${encodeURIComponent(model)}`,
    token: auth.token,
  });

const builtInGpt4o = {
  provider: 'openai',
  model: 'gpt-4o',
  inputPerMillion: 2.5,
  cachedInputPerMillion: 1.25,
  outputPerMillion: 10,
  checkedAt: '2026-12-02',
  source: 'builtin',
};

describe('model prices', () => {
  it('start as the built-in table, with its checked dates, sorted by provider then model', async () => {
    const fresh = await t.signup();
    const table = await list(fresh);
    expect(table).toContainEqual(builtInGpt4o);
    expect(table.every((p) => p.source === 'builtin')).toBe(true);
    const keys = table.map((p) => `${p.provider} ${p.model}`);
    expect(keys).toEqual([...keys].sort());
    expect(keys[0]).toMatch(/^anthropic /);
  });

  it('take an admin’s own price over the built-in one and for a local model, for that organization only', async () => {
    const fresh = await t.signup();
    const other = await t.signup();

    const set = await put(fresh, {
      provider: 'openai',
      model: 'gpt-4o',
      inputPerMillion: 2,
      cachedInputPerMillion: 0.5,
      outputPerMillion: 8,
    });
    expect(set.statusCode, set.body).toBe(200);
    const own = { ...builtInGpt4o, inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 };
    expect(set.json()).toEqual({ ...own, checkedAt: today(), source: 'organization' });

    // No cached price: the input price.
    const local = await put(fresh, {
      provider: 'local',
      model: ' llama3.1:8b ',
      inputPerMillion: 0.1,
      outputPerMillion: 0.2,
    });
    expect(local.json()).toEqual({
      provider: 'local',
      model: 'llama3.1:8b',
      inputPerMillion: 0.1,
      cachedInputPerMillion: 0.1,
      outputPerMillion: 0.2,
      checkedAt: today(),
      source: 'organization',
    });

    const table = await list(fresh);
    expect(table.filter((p) => p.model === 'gpt-4o')).toEqual([
      { ...own, checkedAt: today(), source: 'organization' },
    ]);
    expect(table.find((p) => p.model === 'llama3.1:8b')?.source).toBe('organization');
    expect(table.map((p) => p.provider)).toEqual([...table.map((p) => p.provider)].sort());

    // A second PUT changes the same row.
    await put(fresh, { provider: 'openai', model: 'gpt-4o', inputPerMillion: 3, outputPerMillion: 9 });
    expect(await priceOf(fresh, 'openai', 'gpt-4o')).toMatchObject({
      inputPerMillion: 3,
      cachedInputPerMillion: 3,
      outputPerMillion: 9,
    });

    // Another organization still sees the built-in price and no local model, and cannot remove them.
    expect(await priceOf(other, 'openai', 'gpt-4o')).toEqual(builtInGpt4o);
    expect(await priceOf(other, 'local', 'llama3.1:8b')).toBeUndefined();
    expect((await remove(other, 'local', 'llama3.1:8b')).statusCode).toBe(404);
    expect((await priceOf(fresh, 'local', 'llama3.1:8b'))?.source).toBe('organization');
  });

  it('restore the built-in price when the own one is removed, and answer 404 the second time', async () => {
    const fresh = await t.signup();
    await put(fresh, { provider: 'openai', model: 'gpt-4o', inputPerMillion: 1, outputPerMillion: 1 });
    await put(fresh, { provider: 'local', model: 'llama3.1:8b', inputPerMillion: 0, outputPerMillion: 0 });

    const removed = await remove(fresh, 'openai', 'gpt-4o');
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect(await priceOf(fresh, 'openai', 'gpt-4o')).toEqual(builtInGpt4o);

    const again = await remove(fresh, 'openai', 'gpt-4o');
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('This model has no price of your organization');

    // A model with no built-in price is gone from the table; a name with a slash is one path segment.
    expect((await remove(fresh, 'local', 'llama3.1:8b')).statusCode).toBe(204);
    expect(await priceOf(fresh, 'local', 'llama3.1:8b')).toBeUndefined();
    const slashed = 'meta-llama/Llama-3.1-8B';
    await put(fresh, { provider: 'custom', model: slashed, inputPerMillion: 0.2, outputPerMillion: 0.2 });
    expect((await remove(fresh, 'custom', slashed)).statusCode).toBe(204);
    expect(await priceOf(fresh, 'custom', slashed)).toBeUndefined();
  });

  it('let a member read them but not change them (403), and an admin change them', async () => {
    const team = await t.signup();
    const member = await joinOrganization(t, team, await t.signup(), 'member');
    const admin = await joinOrganization(t, team, await t.signup(), 'admin');
    const body = { provider: 'openai', model: 'gpt-4o', inputPerMillion: 1, outputPerMillion: 2 };

    expect(await priceOf(member, 'openai', 'gpt-4o')).toEqual(builtInGpt4o);
    const refused = await put(member, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This action needs the admin role (or owner)');

    expect((await put(admin, body)).statusCode).toBe(200);
    expect((await priceOf(member, 'openai', 'gpt-4o'))?.source).toBe('organization');
    expect((await remove(member, 'openai', 'gpt-4o')).statusCode).toBe(403);
    expect((await remove(admin, 'openai', 'gpt-4o')).statusCode).toBe(204);
  });

  it(`keep at most ${OWN_PRICES_MAX} of the organization's own (every run reads them), while each stays editable`, async () => {
    const full = await t.signup();
    await t.db.insert(modelPrices).values(
      Array.from({ length: OWN_PRICES_MAX }, (_, i) => ({
        organizationId: full.organization.id,
        provider: 'custom',
        model: `model-${i}`,
        inputPerMillion: 1,
        cachedInputPerMillion: 1,
        outputPerMillion: 1,
      })),
    );
    const refused = await put(full, {
      provider: 'custom',
      model: 'one-more',
      inputPerMillion: 1,
      outputPerMillion: 1,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      `At most ${OWN_PRICES_MAX} prices of your own: remove one you no longer use first`,
    );
    expect(await priceOf(full, 'custom', 'one-more')).toBeUndefined();
    const edited = await put(full, {
      provider: 'custom',
      model: 'model-7',
      inputPerMillion: 2,
      outputPerMillion: 3,
    });
    expect(edited.statusCode).toBe(200);
    expect((await remove(full, 'custom', 'model-0')).statusCode).toBe(204);
    expect(
      (await put(full, { provider: 'custom', model: 'one-more', inputPerMillion: 1, outputPerMillion: 1 }))
        .statusCode,
    ).toBe(200);
  });

  it('refuse a bad price with a 400 naming the problem, and change nothing', async () => {
    const good = { provider: 'openai', model: 'gpt-4o', inputPerMillion: 1, outputPerMillion: 2 };
    for (const [bad, field, message] of [
      [{ inputPerMillion: -1 }, 'inputPerMillion', 'A price cannot be negative'],
      [{ outputPerMillion: -0.01 }, 'outputPerMillion', 'A price cannot be negative'],
      [{ cachedInputPerMillion: -1 }, 'cachedInputPerMillion', 'A price cannot be negative'],
      [{ model: '  ' }, 'model', 'Name the model'],
      // zod's own words for a missing string (the contract gives none): the field names the problem.
      [{ model: undefined }, 'model', 'Name the model'],
      [{ provider: 'mistral' }, 'provider', 'Choose a provider: openai, anthropic, local or custom'],
      [
        { inputPerMillion: '1' },
        'inputPerMillion',
        'A price must be a number of US dollars per million tokens',
      ],
      [{ outputPerMillion: 20_000 }, 'outputPerMillion', 'A price cannot be over $10000 per million tokens'],
    ] as const) {
      const res = await put(owner, { ...good, ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message, JSON.stringify(bad)).toContain(message);
      expect(res.json().errors[0].path, JSON.stringify(bad)).toBe(field);
    }
    expect(await priceOf(owner, 'openai', 'gpt-4o')).toEqual(builtInGpt4o);
  });

  it('price a model for metering with one lookup table: own prices first, snapshots at their alias', async () => {
    const fresh = await t.signup();
    await put(fresh, {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      inputPerMillion: 2,
      outputPerMillion: 10,
    });
    const price = await t.services.prices.priceTable(fresh.organization.id);

    expect(price('openai', 'gpt-4o')).toEqual(builtInGpt4o);
    expect(price('openai', 'gpt-4o-2024-08-06')).toEqual(builtInGpt4o);
    expect(price('anthropic', 'claude-sonnet-4-5-20250929')).toMatchObject({
      inputPerMillion: 2,
      source: 'organization',
    });
    // Another provider's model of the same name, and a model nobody priced: unknown.
    expect(price('local', 'gpt-4o')).toBeUndefined();
    expect(price('custom', 'my-model')).toBeUndefined();
    // Another organization's lookup does not see it.
    const other = await t.services.prices.priceTable(owner.organization.id);
    expect(other('anthropic', 'claude-sonnet-4-5')?.source).toBe('builtin');
  });
});
