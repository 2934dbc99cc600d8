import { and, eq } from 'drizzle-orm';
import { modelPrices, type Db } from '@crewline/db';

/** An organization's own price of one model, as stored (USD per million tokens). */
export type StoredPrice = {
  provider: string;
  model: string;
  inputPerMillion: number;
  cachedInputPerMillion: number;
  outputPerMillion: number;
  updatedAt: Date;
};

const columns = {
  provider: modelPrices.provider,
  model: modelPrices.model,
  inputPerMillion: modelPrices.inputPerMillion,
  cachedInputPerMillion: modelPrices.cachedInputPerMillion,
  outputPerMillion: modelPrices.outputPerMillion,
  updatedAt: modelPrices.updatedAt,
};

/** The organizations' own model prices (`model_prices`); every statement names the organization. */
export function createPricesRepository(db: Db) {
  return {
    /** The organization's own prices, in no particular order. */
    async list(organizationId: string): Promise<StoredPrice[]> {
      return db.select(columns).from(modelPrices).where(eq(modelPrices.organizationId, organizationId));
    },

    /** Sets the organization's price of the model (a new row, or over its earlier one); the row after. */
    async upsert(
      organizationId: string,
      price: Omit<StoredPrice, 'updatedAt'>,
      at: Date,
    ): Promise<StoredPrice> {
      const values = { ...price, updatedAt: at };
      const [row] = await db
        .insert(modelPrices)
        .values({ organizationId, ...values })
        .onConflictDoUpdate({
          target: [modelPrices.organizationId, modelPrices.provider, modelPrices.model],
          set: values,
        })
        .returning(columns);
      return row;
    },

    /** Removes the organization's price of the model; false when it had none. */
    async remove(organizationId: string, provider: string, model: string): Promise<boolean> {
      const rows = await db
        .delete(modelPrices)
        .where(
          and(
            eq(modelPrices.organizationId, organizationId),
            eq(modelPrices.provider, provider),
            eq(modelPrices.model, model),
          ),
        )
        .returning({ model: modelPrices.model });
      return rows.length > 0;
    },
  };
}
export type PricesRepository = ReturnType<typeof createPricesRepository>;
