import type { PlanId, SubscriptionStatusResponse } from '@crewline/contracts';
import { Check } from 'lucide-react';
import { useState } from 'react';

import { Spinner } from '@/components/spinner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';

import { stripePublishableKey, useBillingConfig } from '../api/billing-config';
import { useCreateSubscription } from '../api/subscription';
import { PLAN_IDS, planChangeTiming, planDetails, planName } from '@/lib/billing';
import { pendingPaymentFor, type PendingPayment } from '../lib/stripe-payment';
import { LazyPaymentForm } from './lazy-payment-form';

export const PLAN_CHANGE_RULES =
  'Upgrades apply at once; downgrades at the end of the billing period. During a trial, any change applies at once.';

/**
 * After a change that Stripe needs a card or a payment for (a plan chosen on Free starts a trial whose
 * SetupIntent saves the card): the Payment Element, in the dialog.
 */
export function PlanPaymentStep({
  payment,
  onDone,
  onLater,
}: {
  payment: PendingPayment<PlanId>;
  onDone: () => void;
  onLater: () => void;
}) {
  const details = planDetails(payment.plan);
  const setup = payment.mode === 'setup';
  return (
    <>
      <DialogHeader>
        <DialogTitle>{setup ? 'Add a Payment Method' : `Pay for ${details.name}`}</DialogTitle>
        <DialogDescription>
          {setup
            ? `Your organization is on ${details.name}. You are billed ${details.price}/month only after the trial ends.`
            : `${details.price}/month, billed per organization.`}
        </DialogDescription>
      </DialogHeader>
      <LazyPaymentForm
        publishableKey={payment.publishableKey}
        clientSecret={payment.clientSecret}
        mode={payment.mode}
        onDone={onDone}
      />
      {setup && (
        <p className="text-center text-sm">
          <Button type="button" variant="link" onClick={onLater}>
            Add it later
          </Button>
        </p>
      )}
    </>
  );
}

/**
 * Change Plan: the three plans with their prices; POST /api/create-subscription with the choice. With
 * Stripe, an answer carrying a client secret turns the dialog into the Payment Element to confirm it.
 */
export function ChangePlanDialog({
  open,
  onOpenChange,
  subscription,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  subscription: SubscriptionStatusResponse;
}) {
  const current = subscription.plan;
  const [selected, setSelected] = useState<PlanId | null>(null);
  const create = useCreateSubscription();
  const config = useBillingConfig();
  const publishableKey = stripePublishableKey(config.data);
  const choice = selected ?? current ?? 'professional';
  const timing = planChangeTiming(current, choice, subscription.status);
  // A cancelled subscription may be taken up again on the same plan.
  const resumable = subscription.cancelAtPeriodEnd || subscription.status === 'canceled';
  // The answer of the last change: a client secret to confirm (Stripe) keeps the dialog on the card form.
  const payment =
    create.isSuccess && create.variables
      ? pendingPaymentFor(create.data, publishableKey, create.variables)
      : null;

  const finish = () => {
    create.reset();
    setSelected(null);
    onOpenChange(false);
  };

  const changeOpen = (next: boolean) => {
    if (create.isPending) return;
    if (!next) {
      finish();
      return;
    }
    onOpenChange(next);
  };

  const paid = () => {
    if (!payment) return;
    toast({
      title: payment.mode === 'setup' ? 'Plan Changed' : 'Subscription Active',
      description:
        payment.mode === 'setup'
          ? `Your organization is on the ${planName(payment.plan)} plan and your payment method is saved.`
          : `Your organization is now on the ${planName(payment.plan)} plan.`,
    });
    finish();
  };

  const later = () => {
    if (!payment) return;
    toast({
      title: 'Plan Changed',
      description: `Your organization is on the ${planName(payment.plan)} plan. Add a payment method with Update Payment Method before the trial ends.`,
    });
    finish();
  };

  const confirm = () =>
    create.mutate(choice, {
      onSuccess: (answer) => {
        // Stripe wants the card or the payment confirmed: the dialog shows the Payment Element.
        if (pendingPaymentFor(answer, publishableKey, choice)) return;
        create.reset();
        toast({
          title: 'Plan Changed',
          description:
            timing === 'period_end'
              ? `Your plan changes to ${planName(choice)} at the end of the billing period.`
              : `Your organization is now on the ${planName(choice)} plan.`,
        });
        setSelected(null);
        onOpenChange(false);
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to change plan'),
        }),
    });

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="max-h-[90svh] overflow-y-auto sm:max-w-2xl">
        {payment ? (
          <PlanPaymentStep payment={payment} onDone={paid} onLater={later} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Change Plan</DialogTitle>
              <DialogDescription>{PLAN_CHANGE_RULES}</DialogDescription>
            </DialogHeader>
            <div role="radiogroup" aria-label="Plans" className="grid gap-3 sm:grid-cols-3">
              {PLAN_IDS.map((id) => {
                const details = planDetails(id);
                const checked = id === choice;
                return (
                  <button
                    key={id}
                    type="button"
                    role="radio"
                    aria-checked={checked}
                    aria-label={`${details.name} ${details.price} per month`}
                    disabled={create.isPending}
                    onClick={() => setSelected(id)}
                    className={cn(
                      'relative flex flex-col items-start gap-1 rounded-xl border p-4 text-left transition-colors outline-none hover:bg-muted/50 focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-60',
                      checked && 'border-primary bg-primary/5 ring-1 ring-primary',
                    )}
                  >
                    <span className="flex w-full items-center justify-between gap-2">
                      <span className="font-medium">{details.name}</span>
                      {checked && <Check className="size-4 text-primary" aria-hidden="true" />}
                    </span>
                    <span>
                      <span className="text-2xl font-semibold tracking-tight">{details.price}</span>
                      <span className="text-xs text-muted-foreground">/month</span>
                    </span>
                    <span className="text-xs text-muted-foreground">
                      {details.features.slice(0, 2).join(' · ')}
                    </span>
                    {id === current && (
                      <Badge variant="secondary" className="mt-1">
                        Current plan
                      </Badge>
                    )}
                  </button>
                );
              })}
            </div>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {timing === 'same'
                ? resumable
                  ? `Keeps ${planName(choice)} after the current period.`
                  : 'This is your current plan.'
                : timing === 'now'
                  ? `${planName(choice)} applies at once.`
                  : `${planName(choice)} applies at the end of the billing period.`}
            </p>
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                onClick={() => changeOpen(false)}
                disabled={create.isPending}
              >
                Cancel
              </Button>
              <Button
                type="button"
                onClick={confirm}
                disabled={create.isPending || config.isPending || (timing === 'same' && !resumable)}
                aria-busy={create.isPending}
              >
                {create.isPending && <Spinner />}
                {create.isPending ? 'Changing...' : `Change to ${planName(choice)}`}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
