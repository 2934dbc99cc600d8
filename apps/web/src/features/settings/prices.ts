// What Settings → Costs shows of a model price, and how its form's fields become a PUT /api/prices
// body. The server checks every figure again and names what it refuses.
import type { ModelPrice, SetModelPrice } from '@crewline/contracts';
import { llmProviderValues, type LlmProvider } from '@crewline/contracts/vocabulary';

export const PRICES_READ_ONLY = 'Only owners and admins can change prices.';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** A price per million tokens as US dollars: $2.50, $0.075. */
export const formatPrice = (perMillion: number): string => usd.format(perMillion);

/** The day a price was checked (YYYY-MM-DD, a UTC day) as the viewer writes dates, never shifted by their time zone. */
export function formatCheckedDate(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : date.toLocaleDateString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      });
}

/** The form's fields as typed: prices are text until sent. */
export type PriceDraft = {
  provider: LlmProvider;
  model: string;
  input: string;
  cachedInput: string;
  output: string;
};

export const EMPTY_PRICE_DRAFT: PriceDraft = {
  provider: llmProviderValues[0],
  model: '',
  input: '',
  cachedInput: '',
  output: '',
};

/** A row's figures in the form (Edit). */
export const draftOf = (price: ModelPrice): PriceDraft => ({
  provider: price.provider,
  model: price.model,
  input: String(price.inputPerMillion),
  cachedInput: String(price.cachedInputPerMillion),
  output: String(price.outputPerMillion),
});

/** A typed figure as a number; what is not a number stays text, so the server names the problem. */
const figure = (text: string): number | string => {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) ? value : trimmed;
};

/** The PUT body of the form: an empty cached input price is left out (the server takes the input price). */
export function priceBodyOf(draft: PriceDraft): SetModelPrice {
  const cached = draft.cachedInput.trim();
  return {
    provider: draft.provider,
    model: draft.model.trim(),
    // Text where a number belongs reaches the server as it is, and comes back as a 400 naming the field.
    inputPerMillion: figure(draft.input) as number,
    ...(cached !== '' && { cachedInputPerMillion: figure(cached) as number }),
    outputPerMillion: figure(draft.output) as number,
  };
}
