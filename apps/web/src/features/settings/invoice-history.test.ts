// View History's content (the invoices of GET /api/billing/invoices), rendered to static markup for
// each state of the request: loading, failed, empty (with and without a payment provider), listed.
import type { BillingInvoice } from '@crewline/contracts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import {
  InvoiceHistory,
  NO_INVOICES_YET,
  NO_PROVIDER_INVOICES,
  type InvoiceHistoryState,
} from './components/invoices-dialog';

const render = (state: InvoiceHistoryState) =>
  renderToStaticMarkup(createElement(InvoiceHistory, { state, onRetry: () => {} }));

const invoice = (fields: Partial<BillingInvoice>): BillingInvoice => ({
  id: 'in_1',
  number: 'ABCD1234-0001',
  status: 'paid',
  amountDue: 4900,
  amountPaid: 4900,
  currency: 'usd',
  created: Math.floor(Date.UTC(2026, 2, 15, 12) / 1000),
  periodStart: null,
  periodEnd: null,
  hostedInvoiceUrl: 'https://invoice.stripe.com/i/acct_1/test_1',
  pdfUrl: 'https://pay.stripe.com/invoice/acct_1/test_1/pdf',
  ...fields,
});

describe('InvoiceHistory', () => {
  it('shows a skeleton while loading', () => {
    const html = render({ status: 'pending' });
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('Loading invoices...');
    expect(html).toContain('data-slot="skeleton"');
  });

  it("shows the server's error with Try again", () => {
    const html = render({
      status: 'error',
      error: new Error('403: {"message":"This action needs the admin role (or owner)"}'),
    });
    expect(html).toContain('This action needs the admin role (or owner)');
    expect(html).toContain('Try again');
  });

  it('says why there are no invoices', () => {
    const none = render({ status: 'success', data: { invoices: [], provider: 'none' } });
    expect(none).toContain('No invoices yet');
    expect(none).toContain(NO_PROVIDER_INVOICES);
    const stripe = render({ status: 'success', data: { invoices: [], provider: 'stripe' } });
    expect(stripe).toContain(NO_INVOICES_YET);
    expect(stripe).not.toContain(NO_PROVIDER_INVOICES);
  });

  it('lists the invoices with the date, number, amount in its currency, status and links', () => {
    const html = render({
      status: 'success',
      data: {
        provider: 'stripe',
        invoices: [
          invoice({ id: 'in_2', number: 'ABCD1234-0002', status: 'open', amountPaid: 0 }),
          invoice({ currency: 'eur', amountDue: 1900, amountPaid: 1900, hostedInvoiceUrl: null }),
        ],
      },
    });
    const rows = html.split('data-testid="invoice-row"').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('ABCD1234-0002');
    expect(rows[0]).toMatch(/\$49\.00/);
    expect(rows[0]).toContain('Due');
    expect(rows[0]).toContain(
      'href="https://invoice.stripe.com/i/acct_1/test_1" target="_blank" rel="noopener noreferrer" aria-label="View invoice ABCD1234-0002 (opens in a new tab)"',
    );
    expect(rows[0]).toContain('PDF');
    expect(rows[1]).toContain('€19.00');
    expect(rows[1]).toContain('Paid');
    // Without the hosted page, View opens the PDF (and there is no second link).
    expect(rows[1]).toContain('href="https://pay.stripe.com/invoice/acct_1/test_1/pdf"');
    expect(rows[1]).not.toContain('>PDF<');
    expect(html).toContain(new Date(Date.UTC(2026, 2, 15, 12)).getFullYear().toString());
  });
});
