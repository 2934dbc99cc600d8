// The Stripe Payment Element and its submit button. Imported lazily (lazy-payment-form.tsx): neither
// @stripe/react-stripe-js nor Stripe.js is part of any bundle a page loads at start-up.
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { XCircle } from 'lucide-react';
import type { FormEvent } from 'react';
import { useState } from 'react';

import { Spinner } from '@/components/spinner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';

import { paymentFailedToast } from '@/lib/billing-texts';

import { confirmWithStripe, getStripe, paymentReturnUrl, type PaymentMode } from '../lib/stripe-payment';

export interface PaymentFormProps {
  publishableKey: string;
  /** The SetupIntent's (mode 'setup') or PaymentIntent's (mode 'payment') client secret. */
  clientSecret: string;
  mode: PaymentMode;
  /** The intent was confirmed without a redirect. */
  onDone: () => void;
}

function submitLabel(mode: PaymentMode): string {
  return mode === 'setup' ? 'Save Payment Method' : 'Pay and Subscribe';
}

/** The form without Stripe's hooks: the Payment Element, Stripe's error and the submit button. */
export function PaymentFormView({
  mode,
  ready,
  busy,
  error,
  onSubmit,
}: {
  mode: PaymentMode;
  ready: boolean;
  busy: boolean;
  error: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form className="space-y-4" onSubmit={onSubmit} aria-label="Payment details">
      <PaymentElement />
      {error && (
        <Alert variant="destructive" role="alert">
          <XCircle aria-hidden="true" />
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      )}
      <Button type="submit" size="lg" className="w-full" disabled={!ready || busy} aria-busy={busy}>
        {busy && <Spinner />}
        {busy ? 'Processing...' : submitLabel(mode)}
      </Button>
    </form>
  );
}

function PaymentFormFields({ mode, onDone }: Pick<PaymentFormProps, 'mode' | 'onDone'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const result = await confirmWithStripe(stripe, elements, mode, paymentReturnUrl(window.location.origin));
    setBusy(false);
    if (result.error) {
      // The toast tells at once; the alert stays beside the form while the card is corrected.
      setError(result.error);
      toast(paymentFailedToast(result.error));
    } else onDone();
  };

  return (
    <PaymentFormView
      mode={mode}
      ready={Boolean(stripe && elements)}
      busy={busy}
      error={error}
      onSubmit={(event) => void submit(event)}
    />
  );
}

/** Collects a card with Stripe's Payment Element and confirms the intent of clientSecret. */
export function PaymentForm({ publishableKey, clientSecret, mode, onDone }: PaymentFormProps) {
  return (
    // Elements reads its options once: a new client secret needs a new Elements.
    <Elements key={clientSecret} stripe={getStripe(publishableKey)} options={{ clientSecret }}>
      <PaymentFormFields mode={mode} onDone={onDone} />
    </Elements>
  );
}
