// PaymentForm in a chunk of its own: @stripe/* is fetched only when a payment form is shown.
import { lazy, Suspense } from 'react';

import { Spinner } from '@/components/spinner';

import type { PaymentFormProps } from './payment-form';

const PaymentForm = lazy(() => import('./payment-form').then((module) => ({ default: module.PaymentForm })));

export function LazyPaymentForm(props: PaymentFormProps) {
  return (
    <Suspense
      fallback={
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading the payment form...
        </p>
      }
    >
      <PaymentForm {...props} />
    </Suspense>
  );
}
