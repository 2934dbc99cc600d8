import { describe, expect, it } from 'vitest';
import type { ModelPrice } from '@crewline/contracts';
import { modelAlias, priceLookup } from './prices.columns';

/** An organization's own price (as a claim reads it: no source). */
const own = (provider: ModelPrice['provider'], model: string, inputPerMillion: number) => ({
  provider,
  model,
  inputPerMillion,
  cachedInputPerMillion: inputPerMillion,
  outputPerMillion: 0,
  checkedAt: '2026-12-03',
});

describe('modelAlias', () => {
  it('strips a trailing date, in either provider’s form', () => {
    expect(modelAlias('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(modelAlias('gpt-4o-mini-2024-07-18')).toBe('gpt-4o-mini');
    expect(modelAlias('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
  });

  it('leaves ids without a trailing date as they are', () => {
    for (const id of [
      'gpt-4o',
      'claude-sonnet-4-5',
      'llama3.1:8b',
      'gpt-4o-2024-08-06-preview',
      'model-1234567',
    ])
      expect(modelAlias(id)).toBe(id);
  });
});

describe('priceLookup', () => {
  const lookup = priceLookup([
    own('openai', 'gpt-4o-2024-05-13', 5),
    own('anthropic', 'claude-sonnet-4-5', 2),
    own('local', 'llama3.1:8b', 0.1),
  ]);

  it('takes the organization’s own price over the built-in one, and the built-in one otherwise', () => {
    expect(lookup('anthropic', 'claude-sonnet-4-5')).toMatchObject({
      inputPerMillion: 2,
      source: 'organization',
    });
    expect(lookup('local', 'llama3.1:8b')).toMatchObject({ inputPerMillion: 0.1, source: 'organization' });
    expect(lookup('openai', 'gpt-4o')).toMatchObject({ inputPerMillion: 2.5, source: 'builtin' });
  });

  it('finds the exact model first, else a snapshot’s alias', () => {
    expect(lookup('openai', 'gpt-4o-2024-05-13')?.inputPerMillion).toBe(5);
    expect(lookup('openai', 'gpt-4o-2024-08-06')?.inputPerMillion).toBe(2.5);
    expect(lookup('openai', 'gpt-4o-mini-2024-07-18')?.inputPerMillion).toBe(0.15);
    expect(lookup('anthropic', 'claude-sonnet-4-5-20250929')).toMatchObject({ source: 'organization' });
  });

  it('knows no price for another provider’s model of that name, or a model nobody priced', () => {
    expect(lookup('anthropic', 'gpt-4o')).toBeUndefined();
    expect(lookup('custom', 'my-model')).toBeUndefined();
    expect(lookup('local', 'mistral-20250101')).toBeUndefined();
  });
});
