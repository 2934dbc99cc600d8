import type { BillingInterval, PlanId, SubscriptionStatusResponse } from '@crewline/contracts';
import { Check } from 'lucide-react';
import { useState } from 'react';

import { Spinner } from '@/components/spinner';
import { TalkToSales } from '@/components/talk-to-sales-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
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
import { intervalAdverb, intervalPrice, subscriptionCreatedToast } from '@/lib/billing-texts';
import { pendingPaymentFor, type PendingPayment } from '../lib/stripe-payment';
import { IntervalSwitch } from './interval-switch';
import { LazyPaymentForm } from './lazy-payment-form';

/** Without a payment provider no invoice can be sent: the way to ask for one (Talk to Sales). */
const ENTERPRISE_INVOICE_CONTACT =
  'To pay Enterprise by invoice, contact sales: invoices are sent once a payment provider is set up.';

/**
 * Paying Enterprise by invoice: with Stripe, a choice (Stripe emails the invoice); without a payment
 * provider, the sentence and the Talk to Sales form.
 */
export function EnterpriseInvoiceChoice(props: {
  id: string;
  withProvider: boolean;
  byInvoice: boolean;
  onChange: (byInvoice: boolean) => void;
  disabled: boolean;
}) {
  if (!props.withProvider) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm text-muted-foreground">{ENTERPRISE_INVOICE_CONTACT}</p>
        <TalkToSales
          render={(open) => (
            <Button type="button" variant="outline" size="sm" onClick={open}>
              Talk to Sales
            </Button>
          )}
        />
      </div>
    );
  }
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id={props.id}
        checked={props.byInvoice}
        onCheckedChange={(value) => props.onChange(value === true)}
        disabled={props.disabled}
      />
      <Label htmlFor={props.id} className="font-normal">
        Pay by invoice (emailed by Stripe, due within 30 days)
      </Label>
    </div>
  );
}

const PLAN_CHANGE_RULES =
  'Upgrades apply at once; downgrades at the end of the billing period. During a trial, any change applies at once.';

/**
 * After a change that Stripe needs a card or a payment for (a plan chosen on Free starts a trial whose
 * SetupIntent saves the card): the Payment Element, in the dialog.
 */
function PlanPaymentStep({
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
  initialPlan,
  initialInterval,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  subscription: SubscriptionStatusResponse;
  /** The plan chosen when it opens (/subscribe?plan=…), else the current one. */
  initialPlan?: PlanId | null;
  initialInterval?: BillingInterval | null;
}) {
  const current = subscription.plan;
  const [selected, setSelected] = useState<PlanId | null>(null);
  const [pickedInterval, setPickedInterval] = useState<BillingInterval | null>(null);
  const [byInvoice, setByInvoice] = useState(subscription.paymentMethod === 'invoice');
  const create = useCreateSubscription();
  const config = useBillingConfig();
  const publishableKey = stripePublishableKey(config.data);
  const choice = selected ?? initialPlan ?? current ?? 'professional';
  const interval = pickedInterval ?? initialInterval ?? subscription.interval;
  // Invoices are Stripe's to send, for Enterprise only.
  const payByInvoice = byInvoice && choice === 'enterprise' && Boolean(publishableKey);
  const samePlan = planChangeTiming(current, choice, subscription.status);
  const changesPayment = payByInvoice !== (subscription.paymentMethod === 'invoice');
  // Another interval starts a new period today: it applies at once, as the server does.
  const timing =
    samePlan === 'same' && (interval !== subscription.interval || changesPayment)
      ? 'now'
      : samePlan === 'period_end' && interval !== subscription.interval
        ? 'now'
        : samePlan;
  // A cancelled subscription may be taken up again on the same plan.
  const resumable = subscription.cancelAtPeriodEnd || subscription.status === 'canceled';
  // The answer of the last change: a client secret to confirm (Stripe) keeps the dialog on the card form.
  const payment =
    create.isSuccess && create.variables
      ? pendingPaymentFor(
          create.data,
          publishableKey,
          typeof create.variables === 'string' ? create.variables : create.variables.plan,
        )
      : null;
  const trialStarts = subscription.status === 'no_subscription' && !subscription.trialUsed;

  const finish = () => {
    create.reset();
    setSelected(null);
    setPickedInterval(null);
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
    toast(
      trialStarts || subscription.status === 'no_subscription'
        ? subscriptionCreatedToast({ plan: payment.plan, interval, trialStarted: trialStarts })
        : {
            title: payment.mode === 'setup' ? 'Plan Changed' : 'Subscription Active',
            description:
              payment.mode === 'setup'
                ? `Your organization is on the ${planName(payment.plan)} plan and your payment method is saved.`
                : `Your organization is now on the ${planName(payment.plan)} plan.`,
          },
    );
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
    create.mutate(
      { plan: choice, interval, payByInvoice },
      {
        onSuccess: (answer) => {
          // Stripe wants the card or the payment confirmed: the dialog shows the Payment Element.
          if (pendingPaymentFor(answer, publishableKey, choice)) return;
          create.reset();
          toast(
            subscription.status === 'no_subscription'
              ? subscriptionCreatedToast({ plan: choice, interval, trialStarted: trialStarts })
              : {
                  title: 'Plan Changed',
                  description:
                    timing === 'period_end'
                      ? `Your plan changes to ${planName(choice)} at the end of the billing period.`
                      : `Your organization is now on the ${planName(choice)} plan, billed ${intervalAdverb(interval)}.`,
                },
          );
          setSelected(null);
          setPickedInterval(null);
          onOpenChange(false);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: getErrorMessage(error, 'Failed to change plan'),
          }),
      },
    );

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
            <IntervalSwitch
              value={interval}
              onChange={setPickedInterval}
              disabled={create.isPending}
              className="self-start"
            />
            <div role="radiogroup" aria-label="Plans" className="grid gap-3 sm:grid-cols-3">
              {PLAN_IDS.map((id) => {
                const details = planDetails(id);
                const price = intervalPrice(id, interval);
                const checked = id === choice;
                return (
                  <button
                    key={id}
                    type="button"
                    role="radio"
                    aria-checked={checked}
                    aria-label={`${details.name} ${price.perMonth} per month${interval === 'year' ? `, ${price.perYear} per year` : ''}`}
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
                      <span className="text-2xl font-semibold tracking-tight">{price.perMonth}</span>
                      <span className="text-xs text-muted-foreground">/month</span>
                    </span>
                    {interval === 'year' && (
                      <span className="text-xs text-muted-foreground">{price.perYear} billed yearly</span>
                    )}
                    <span className="text-xs text-muted-foreground">
                      {details.features.slice(0, 2).join(' · ')}
                    </span>
                    {id === current && subscription.status !== 'no_subscription' && (
                      <Badge variant="secondary" className="mt-1">
                        Current plan
                      </Badge>
                    )}
                  </button>
                );
              })}
            </div>
            {choice === 'enterprise' && (
              <EnterpriseInvoiceChoice
                id="pay-by-invoice"
                withProvider={Boolean(publishableKey)}
                byInvoice={byInvoice}
                onChange={setByInvoice}
                disabled={create.isPending}
              />
            )}
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
