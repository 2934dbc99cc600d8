import {
  OWN_PRICES_MAX,
  pricesMessages,
  type LlmProvider,
  type ModelPrice,
  type SetModelPrice,
} from '@crewline/contracts';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import { priceLookup, pricesInForce, type PriceLookup } from './prices.columns';
import type { PricesRepository, StoredPrice } from './prices.repository';

/** The day (UTC, YYYY-MM-DD) an organization's price was set: its "checked" date. */
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

const ownPrice = (row: StoredPrice): ModelPrice => ({
  // Only PUT writes rows, with the contract's providers.
  provider: row.provider as LlmProvider,
  model: row.model,
  inputPerMillion: row.inputPerMillion,
  cachedInputPerMillion: row.cachedInputPerMillion,
  outputPerMillion: row.outputPerMillion,
  checkedAt: dayOf(row.updatedAt),
  source: 'organization',
});

/** Code-unit order (not the locale's), so every server sorts the same. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byProviderThenModel = (a: ModelPrice, b: ModelPrice) =>
  compare(a.provider, b.provider) || compare(a.model, b.model);

/** The table in force (prices.columns.ts), sorted by provider, then model. */
const tableInForce = (own: StoredPrice[]): ModelPrice[] =>
  [...pricesInForce(own.map(ownPrice)).values()].sort(byProviderThenModel);

/**
 * What model calls cost (Settings → Costs, docs/product-rules.md, Costs): the built-in price table,
 * which an organization's owners and admins override or extend with their own prices (the route
 * checks the role). Every statement is the organization's own: another's prices are never read.
 */
export function createPricesService(deps: { repository: PricesRepository; clock?: () => Date }) {
  const { repository } = deps;
  const now = () => deps.clock?.() ?? new Date();

  return {
    /** The table in force for the organization, sorted by provider, then model. */
    async list(organizationId: string): Promise<ModelPrice[]> {
      return tableInForce(await repository.list(organizationId));
    },

    /** Sets the organization's price of a model (the contract checked it); a cached input price defaults to the input one. */
    async set(organizationId: string, body: SetModelPrice): Promise<ModelPrice> {
      const own = await repository.list(organizationId);
      const isNew = !own.some((row) => row.provider === body.provider && row.model === body.model);
      if (isNew && own.length >= OWN_PRICES_MAX) throw new BadRequestError(pricesMessages.tooMany);
      const row = await repository.upsert(
        organizationId,
        {
          provider: body.provider,
          model: body.model,
          inputPerMillion: body.inputPerMillion,
          cachedInputPerMillion: body.cachedInputPerMillion ?? body.inputPerMillion,
          outputPerMillion: body.outputPerMillion,
        },
        now(),
      );
      return ownPrice(row);
    },

    /** Removes the organization's price of a model: its built-in price, if any, applies again. */
    async remove(organizationId: string, provider: string, model: string): Promise<void> {
      if (!(await repository.remove(organizationId, provider, model))) {
        throw new NotFoundError(pricesMessages.noOwnPrice);
      }
    },

    /**
     * The organization's price lookup (prices.columns.ts: its own price, else the built-in one; a
     * dated snapshot falls back to its alias's), read with one query: the lookup is synchronous.
     */
    async priceTable(organizationId: string): Promise<PriceLookup> {
      return priceLookup((await repository.list(organizationId)).map(ownPrice));
    },
  };
}
export type PricesService = ReturnType<typeof createPricesService>;
