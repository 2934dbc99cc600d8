import type { BillingInvoice, InvoicesResponse } from '@crewline/contracts';
import { ExternalLink, Receipt } from 'lucide-react';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api';
import { formatMoney, invoiceAmount, invoiceLink, invoiceStatusBadge } from '@/lib/billing';
import { formatDate } from '@/lib/format';
import { useInvoices } from '@/lib/queries/invoices';

export const NO_PROVIDER_INVOICES =
  'No payment provider is configured on this server, so there are no invoices.';
export const NO_INVOICES_YET = 'Invoices appear here once your organization is billed.';

/** What the history shows: the state of GET /api/billing/invoices. */
export type InvoiceHistoryState =
  { status: 'pending' } | { status: 'error'; error: unknown } | { status: 'success'; data: InvoicesResponse };

const th = 'px-2 py-2 text-left text-xs font-medium text-muted-foreground sm:px-3';
const td = 'px-2 py-2.5 align-middle sm:px-3';

function InvoiceRow({ invoice }: { invoice: BillingInvoice }) {
  const badge = invoiceStatusBadge(invoice.status);
  const link = invoiceLink(invoice);
  const number = invoice.number ?? '—';
  const name = invoice.number ? `invoice ${invoice.number}` : 'invoice';
  return (
    <tr className="border-t" data-testid="invoice-row">
      <td className={td}>
        <span className="whitespace-nowrap">{formatDate(invoice.created * 1000)}</span>
        <span className="block font-mono text-xs text-muted-foreground sm:hidden">{number}</span>
      </td>
      <td className={`${td} hidden font-mono text-xs sm:table-cell`}>{number}</td>
      <td className={`${td} text-right font-medium whitespace-nowrap tabular-nums`}>
        {formatMoney(invoiceAmount(invoice), invoice.currency)}
        {/* On a phone the status sits under the amount. */}
        <StatusBadge label={badge.label} tone={badge.tone} className="mt-1 ml-auto flex sm:hidden" />
      </td>
      <td className={`${td} hidden sm:table-cell`}>
        <StatusBadge label={badge.label} tone={badge.tone} />
      </td>
      <td className={`${td} text-right whitespace-nowrap`}>
        {link && (
          <Button asChild variant="link" size="sm" className="h-auto px-0">
            <a
              href={link}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`View ${name} (opens in a new tab)`}
            >
              View
              <ExternalLink aria-hidden="true" />
            </a>
          </Button>
        )}
        {link && invoice.pdfUrl && invoice.pdfUrl !== link && (
          <Button
            asChild
            variant="link"
            size="sm"
            className="ml-3 hidden h-auto px-0 text-muted-foreground sm:inline-flex"
          >
            <a
              href={invoice.pdfUrl}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Download ${name} as PDF (opens in a new tab)`}
            >
              PDF
            </a>
          </Button>
        )}
      </td>
    </tr>
  );
}

/** The invoices, newest first, or what stands instead: a skeleton, the error with a retry, or why there are none. */
export function InvoiceHistory({ state, onRetry }: { state: InvoiceHistoryState; onRetry: () => void }) {
  if (state.status === 'pending') {
    return (
      <div aria-busy="true" className="space-y-2" data-testid="invoices-loading">
        <span className="sr-only">Loading invoices...</span>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <LoadErrorState
        icon={Receipt}
        title={getErrorMessage(state.error, 'The invoices could not be loaded.')}
        onRetry={onRetry}
        size="sm"
      />
    );
  }
  const { invoices, provider } = state.data;
  if (invoices.length === 0) {
    return (
      <EmptyState
        icon={Receipt}
        title="No invoices yet"
        description={provider === 'none' ? NO_PROVIDER_INVOICES : NO_INVOICES_YET}
      />
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-sm">
        <caption className="sr-only">Invoices, newest first</caption>
        <thead className="bg-muted/40">
          <tr>
            <th scope="col" className={th}>
              Date
            </th>
            <th scope="col" className={`${th} hidden sm:table-cell`}>
              Number
            </th>
            <th scope="col" className={`${th} text-right`}>
              Amount
            </th>
            <th scope="col" className={`${th} hidden sm:table-cell`}>
              Status
            </th>
            <th scope="col" className={th}>
              <span className="sr-only">Links</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** View History in the Billing tab: the organization's invoices (owners and admins). */
export function InvoicesDialog({
  open,
  onOpenChange,
  organizationName,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizationName: string;
}) {
  const invoices = useInvoices({ enabled: open });
  const state: InvoiceHistoryState = invoices.data
    ? { status: 'success', data: invoices.data }
    : invoices.isError && !invoices.isFetching
      ? { status: 'error', error: invoices.error }
      : { status: 'pending' };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Billing history</DialogTitle>
          <DialogDescription>Invoices of {organizationName}, newest first</DialogDescription>
        </DialogHeader>
        <InvoiceHistory state={state} onRetry={() => void invoices.refetch()} />
      </DialogContent>
    </Dialog>
  );
}
