import { sql, type SQL } from 'drizzle-orm';
import { builtInPrices, type ModelPrice } from '@crewline/contracts';

/*
 * What the costs module offers other modules' statements over `model_prices` (it owns the table): a
 * run's claim reads the organization's prices with the run, so metering its model calls reads
 * nothing more (docs/architecture.md, Runs).
 */

/** The organization's own prices, as a JSON list, for the row `row` (a run's) of that organization. */
export const organizationPricesJson = (row: string): SQL<unknown> => sql`coalesce((
  select json_agg(json_build_object('provider', p.provider, 'model', p.model,
    'inputPerMillion', p.input_per_million, 'cachedInputPerMillion', p.cached_input_per_million,
    'outputPerMillion', p.output_per_million, 'checkedAt', to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD')))
  from model_prices p where p.organization_id = ${sql.raw(`"${row}"."organization_id"`)}), '[]'::json)`;

/** A dated snapshot's id ('gpt-4o-2024-08-06', 'claude-sonnet-4-5-20250929') without its date: its alias. */
export function modelAlias(model: string): string {
  return model.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '');
}

/** Finds a model's price: the organization's, else the built-in one; a dated snapshot falls back to its alias's. */
export type PriceLookup = (provider: string, model: string) => ModelPrice | undefined;

/**
 * The prices in force, by `provider/model` (a provider's name has no slash): the built-in ones, each
 * replaced by the organization's own for the same model, and its others.
 */
export function pricesInForce(own: Omit<ModelPrice, 'source'>[]): Map<string, ModelPrice> {
  const table = new Map<string, ModelPrice>();
  for (const price of builtInPrices)
    table.set(`${price.provider}/${price.model}`, { ...price, source: 'builtin' });
  for (const price of own)
    table.set(`${price.provider}/${price.model}`, { ...price, source: 'organization' });
  return table;
}

/** The lookup over the organization's own prices (`organizationPricesJson`'s list, or rows read apart). */
export function priceLookup(own: Omit<ModelPrice, 'source'>[]): PriceLookup {
  const table = pricesInForce(own);
  return (provider, model) =>
    table.get(`${provider}/${model}`) ?? table.get(`${provider}/${modelAlias(model)}`);
}

/** The lookup from the JSON a claim read (`organizationPricesJson`). */
export const priceLookupFromJson = (json: unknown): PriceLookup =>
  priceLookup(Array.isArray(json) ? (json as Omit<ModelPrice, 'source'>[]) : []);
