import type { ModelPrice, SetModelPrice } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { PRICES_READ_ONLY } from '../prices';
import { PricesCard } from './prices-card';

const URL = '/api/prices';
const builtIn = (model: string, input: number, cached: number, output: number): ModelPrice => ({
  provider: 'openai',
  model,
  inputPerMillion: input,
  cachedInputPerMillion: cached,
  outputPerMillion: output,
  checkedAt: '2026-12-02',
  source: 'builtin',
});
const BUILT_IN = [builtIn('gpt-4o', 2.5, 1.25, 10), builtIn('gpt-4o-mini', 0.15, 0.075, 0.6)];

/** The server's table: the built-in one with the organization's own prices over it, changed by PUT and DELETE. */
function priceServer(sent: SetModelPrice[] = []) {
  const own = new Map<string, ModelPrice>();
  const key = (provider: string, model: string) => `${provider} ${model}`;
  const table = () => {
    const all = new Map(BUILT_IN.map((p) => [key(p.provider, p.model), p]));
    for (const [k, p] of own) all.set(k, p);
    return [...all.values()];
  };
  server.use(
    http.get(`${ORIGIN}${URL}`, () => HttpResponse.json(table())),
    http.put(`${ORIGIN}${URL}`, async ({ request }) => {
      const body = (await request.json()) as SetModelPrice;
      sent.push(body);
      const negative = (['inputPerMillion', 'outputPerMillion'] as const).find((f) => body[f] < 0);
      if (negative)
        return HttpResponse.json(
          {
            message: 'A price cannot be negative',
            errors: [{ path: negative, message: 'A price cannot be negative' }],
          },
          { status: 400 },
        );
      const price: ModelPrice = {
        ...body,
        cachedInputPerMillion: body.cachedInputPerMillion ?? body.inputPerMillion,
        checkedAt: '2026-12-03',
        source: 'organization',
      };
      own.set(key(body.provider, body.model), price);
      return HttpResponse.json(price);
    }),
    http.delete(`${ORIGIN}${URL}/:provider/:model`, ({ params }) => {
      const k = key(String(params.provider), String(params.model));
      if (!own.delete(k))
        return HttpResponse.json(
          { message: 'This model has no price of your organization' },
          { status: 404 },
        );
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

const row = (name: string) => screen.findByRole('row', { name });
/** The table (from sm up); a phone's list of the same prices repeats its buttons. */
const table = () => screen.findByRole('table', { name: 'Model prices' });
const cells = (tr: HTMLElement) =>
  within(tr)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

beforeAll(() => {
  // Radix's Select reaches for pointer capture and scrolling, which jsdom lacks.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

describe('the model prices (Settings → Costs)', () => {
  it('shows the table in force: prices in USD per 1M tokens, the day checked, where each comes from', async () => {
    priceServer();
    renderWithApp(<PricesCard manager={false} />);

    const gpt4o = await row('OpenAI gpt-4o');
    expect(cells(gpt4o)).toEqual(['OpenAI', 'gpt-4o', '$2.50', '$1.25', '$10.00', 'Dec 2, 2026', 'Built-in']);
    expect(cells(await row('OpenAI gpt-4o-mini')).slice(2, 5)).toEqual(['$0.15', '$0.075', '$0.60']);
    // A phone's list says the same, each figure named.
    const item = within(screen.getByRole('list', { name: 'Model prices' })).getByRole('listitem', {
      name: 'OpenAI gpt-4o',
    });
    expect(within(item).getByText('Cached input').nextSibling?.textContent).toBe('$1.25');
    expect(item.textContent).toContain('checked Dec 2, 2026');
    // A member reads, and changes nothing.
    expect(screen.getByText(PRICES_READ_ONLY)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Edit|Remove|Save/ })).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('lets an admin edit a built-in price into their own, then remove it so the built-in one applies again', async () => {
    const sent: SetModelPrice[] = [];
    priceServer(sent);
    const user = userEvent.setup();
    renderWithApp(
      <>
        <PricesCard manager />
        <Toaster />
      </>,
    );

    await user.click(within(await table()).getByRole('button', { name: 'Edit the price of gpt-4o' }));
    const form = screen.getByRole('form', { name: 'Edit price' });
    expect((within(form).getByLabelText('Model') as HTMLInputElement).value).toBe('gpt-4o');
    const output = within(form).getByLabelText('Output') as HTMLInputElement;
    expect(output.value).toBe('10');

    // A negative price: the server's words under the field, nothing saved.
    await user.clear(output);
    await user.type(output, '-1');
    await user.click(within(form).getByRole('button', { name: 'Save price' }));
    expect(await within(form).findByText('A price cannot be negative')).toBeTruthy();
    expect(output.getAttribute('aria-invalid')).toBe('true');

    await user.clear(output);
    await user.type(output, '8');
    await user.click(within(form).getByRole('button', { name: 'Save price' }));
    expect(await screen.findByText('Price saved')).toBeTruthy();
    expect(sent.at(-1)).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      inputPerMillion: 2.5,
      cachedInputPerMillion: 1.25,
      outputPerMillion: 8,
    });
    await waitFor(async () => expect(cells(await row('OpenAI gpt-4o'))[4]).toBe('$8.00'));
    expect(cells(await row('OpenAI gpt-4o')).slice(5, 7)).toEqual(['Dec 3, 2026', 'Your price']);
    // The form is empty again, for a new price.
    expect(screen.getByRole('form', { name: 'Add price' })).toBeTruthy();
    // Only the organization's own rows can be removed.
    expect(screen.queryByRole('button', { name: 'Remove your price of gpt-4o-mini' })).toBeNull();

    await user.click(within(await table()).getByRole('button', { name: 'Remove your price of gpt-4o' }));
    expect(await screen.findByText('Price removed')).toBeTruthy();
    await waitFor(async () =>
      expect(cells(await row('OpenAI gpt-4o')).slice(4)).toEqual([
        '$10.00',
        'Dec 2, 2026',
        'Built-in',
        'Edit',
      ]),
    );
  });

  it('lets an admin add a price for a local model, the cached input price left to the server', async () => {
    const sent: SetModelPrice[] = [];
    priceServer(sent);
    const user = userEvent.setup();
    renderWithApp(<PricesCard manager />);

    const form = await screen.findByRole('form', { name: 'Add price' });
    await user.click(within(form).getByRole('combobox', { name: 'Provider' }));
    await user.click(await screen.findByRole('option', { name: 'Local (Ollama)' }));
    await user.type(within(form).getByLabelText('Model'), ' llama3.1:8b ');
    await user.type(within(form).getByLabelText('Input'), '0.1');
    await user.type(within(form).getByLabelText('Output'), '0.2');
    await user.click(within(form).getByRole('button', { name: 'Save price' }));

    expect(cells(await row('Local llama3.1:8b')).slice(2, 7)).toEqual([
      '$0.10',
      '$0.10',
      '$0.20',
      'Dec 3, 2026',
      'Your price',
    ]);
    expect(sent).toEqual([
      { provider: 'local', model: 'llama3.1:8b', inputPerMillion: 0.1, outputPerMillion: 0.2 },
    ]);
  });
});
